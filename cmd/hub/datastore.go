package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"
)

// datastoreFlags are --datastore and --datastore-file, the two ways hub
// start and hub init are given the datastore. A DSN holds the database's
// password, and a process's command line is readable by every user of its
// machine (ps, /proc/<pid>/cmdline): --datastore-file keeps it in a file,
// as a mounted Kubernetes Secret, where only the hub's user reads it.
type datastoreFlags struct {
	dsn, file string
}

const datastoreUsage = "sqlite://PATH, postgres://… or cockroachdb://… (default sqlite://<data-dir>/canopy.db); " +
	"it shows in the hub's command line, so give a DSN holding a password with --datastore-file instead"

func (d *datastoreFlags) addFlags(flags *pflag.FlagSet) {
	flags.StringVar(&d.dsn, "datastore", "", datastoreUsage)
	flags.StringVar(&d.file, "datastore-file", "", "file holding the --datastore DSN, as mounted from a Kubernetes Secret, which keeps its password off the command line; leading and trailing white space is ignored")
}

// datastore is the DSN the flags give, read from --datastore-file if that
// is the one set; empty means the default. Each of the two may come from
// the command line or from a --config file; one on the command line wins
// over the other in the file, as any flag on the command line does, but
// two from the same place are refused, since neither says which is meant.
func (d *datastoreFlags) datastore(flags *pflag.FlagSet) (string, error) {
	dsn, file := d.dsn, d.file
	switch byHand, fileByHand := flags.Changed("datastore"), flags.Changed("datastore-file"); {
	case byHand && fileByHand:
		return "", fmt.Errorf("--datastore and --datastore-file are both given; give the DSN one way: --datastore-file keeps its password off the command line")
	case byHand:
		file = ""
	case fileByHand:
		dsn = ""
	case dsn != "" && file != "":
		return "", fmt.Errorf("the --config file sets both datastore and datastore-file; keep one of them")
	}
	if file == "" {
		return dsn, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("--datastore-file: %w", err)
	}
	dsn = strings.TrimSpace(string(data))
	if dsn == "" {
		return "", fmt.Errorf("--datastore-file %s is empty; write the datastore's DSN in it, as postgres://user:password@host:5432/db", file)
	}
	return dsn, nil
}
