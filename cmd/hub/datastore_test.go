package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// The DSN comes from --datastore or from the file --datastore-file names,
// trimmed, each given on the command line or in a --config file; one on
// the command line wins over the other in the file, and two given in one
// place, an empty file or one that cannot be read are refused, naming
// what to fix.
func TestDatastoreFlags(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const secret = "postgres://canopy:s3cret@db:5432/canopy?sslmode=require"
	dsnFile := write("dsn", "\n  "+secret+"\n")
	empty := write("empty", " \n\t\n")
	missing := filepath.Join(dir, "missing")
	configFile := write("config.yaml", "datastore-file: "+dsnFile+"\n")
	configDSN := write("config-dsn.yaml", "datastore: sqlite:///var/lib/canopy/canopy.db\n")
	configBoth := write("config-both.yaml", "datastore: sqlite:///x.db\ndatastore-file: "+dsnFile+"\n")

	for _, tc := range []struct {
		name    string
		args    []string
		config  string
		want    string
		wantErr string
	}{
		{name: "neither: the default", want: ""},
		{name: "--datastore", args: []string{"--datastore", "sqlite:///x.db"}, want: "sqlite:///x.db"},
		{name: "--datastore-file, trimmed", args: []string{"--datastore-file", dsnFile}, want: secret},
		{name: "both", args: []string{"--datastore", "sqlite:///x.db", "--datastore-file", dsnFile}, wantErr: "--datastore and --datastore-file are both given"},
		{name: "an empty file", args: []string{"--datastore-file", empty}, wantErr: "--datastore-file " + empty + " is empty"},
		{name: "a missing file", args: []string{"--datastore-file", missing}, wantErr: "--datastore-file: open " + missing + ": no such file"},
		{name: "a directory", args: []string{"--datastore-file", dir}, wantErr: dir + ": is a directory"},
		{name: "datastore-file in --config", config: configFile, want: secret},
		{name: "--datastore over the config's datastore-file", args: []string{"--datastore", "sqlite:///x.db"}, config: configFile, want: "sqlite:///x.db"},
		{name: "--datastore-file over the config's datastore", args: []string{"--datastore-file", dsnFile}, config: configDSN, want: secret},
		{name: "both in --config", config: configBoth, wantErr: "the --config file sets both datastore and datastore-file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d datastoreFlags
			flags := pflag.NewFlagSet("start", pflag.ContinueOnError)
			d.addFlags(flags)
			if err := flags.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			if err := applyConfigFile(flags, tc.config); err != nil {
				t.Fatal(err)
			}
			got, err := d.datastore(flags)
			switch {
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("got %q, %v; want an error saying %q", got, err, tc.wantErr)
			case tc.wantErr == "" && (err != nil || got != tc.want):
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "s3cret") {
				t.Errorf("the error shows the password: %v", err)
			}
		})
	}
}

// hub start and hub init both take the DSN from a file, and refuse both
// ways at once before they touch any datastore.
func TestCommandsTakeDatastoreFile(t *testing.T) {
	for _, cmd := range []string{"start", "init"} {
		root := newRootCommand()
		root.SetArgs([]string{cmd, "--data-dir", t.TempDir(), "--datastore", "sqlite:///x.db", "--datastore-file", "/nonexistent"})
		root.SetOut(&strings.Builder{})
		root.SetErr(&strings.Builder{})
		if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "--datastore and --datastore-file are both given") {
			t.Errorf("hub %s with both: %v", cmd, err)
		}
	}
}
