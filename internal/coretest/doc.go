// Package coretest builds the hub's core/v1 stores over a throwaway
// SQLite datastore, for unit tests of what reads and writes them: the
// informers and the controllers.
package coretest
