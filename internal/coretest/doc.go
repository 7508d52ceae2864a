// Package coretest builds the hub's core/v1 stores, or those of the API
// groups a test names, over a throwaway SQLite datastore, for unit tests
// of what reads and writes them: the informers and the controllers.
package coretest
