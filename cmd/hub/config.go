package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"sigs.k8s.io/yaml"
)

// applyConfigFile sets the flags that path names, by their flag names,
// unless the command line set them: a config file holds a deployment's
// settings, and a flag given by hand overrides it for one run.
func applyConfigFile(flags *pflag.FlagSet, path string) error {
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("--config: %w", err)
	}
	var settings map[string]any
	if err := yaml.Unmarshal(data, &settings); err != nil {
		return fmt.Errorf("--config %s: not a YAML map of flag names to values: %w", path, err)
	}
	names := make([]string, 0, len(settings))
	for name := range settings {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f := flags.Lookup(name)
		if f == nil || name == "config" {
			return fmt.Errorf("--config %s: %q is not a flag of this command; the flags are %s", path, name, flagNames(flags))
		}
		if f.Changed {
			continue
		}
		for _, v := range values(settings[name]) {
			if err := f.Value.Set(v); err != nil {
				return fmt.Errorf("--config %s: %s: %w", path, name, err)
			}
		}
	}
	return nil
}

// values are the strings to set a flag to for a YAML value: a list sets
// a list flag once per item.
func values(v any) []string {
	items, ok := v.([]any)
	if !ok {
		return []string{fmt.Sprint(v)}
	}
	out := make([]string, 0, len(items))
	for _, item := range items {
		out = append(out, fmt.Sprint(item))
	}
	return out
}

func flagNames(flags *pflag.FlagSet) string {
	var names []string
	flags.VisitAll(func(f *pflag.Flag) {
		if f.Name != "config" && f.Name != "help" {
			names = append(names, f.Name)
		}
	})
	return strings.Join(names, ", ")
}
