// Package report is what the benchmarks print alike: the machine's load
// beside their figures, the percentiles of latencies, and whether a figure
// met its goal.
package report
