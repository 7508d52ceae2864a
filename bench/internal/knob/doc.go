// Package knob reads the settings of a benchmark run, the CANOPY_BENCH_*
// environment variables, each with its default when unset.
package knob
