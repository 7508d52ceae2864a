// Package follow keeps a benchmark told of a resource's objects through
// one list and watch, listing again whenever the watch breaks.
package follow
