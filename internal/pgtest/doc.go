// Package pgtest starts throwaway PostgreSQL servers for tests.
//
// Each [Server] lives in its own temporary directory, listens only on a free
// loopback port, and keeps fsync on so crash tests ([Server.Kill] followed by
// [Server.Restart]) exercise real durability.
//
// Use [Start] when a test needs a server to itself (for example to stop or
// crash it), and [Shared] plus [Server.NewDatabase] when a database of its own
// is enough. Packages that call [Shared] must route TestMain through [Main].
//
// [StartPair] starts a primary with a synchronous streaming standby cloned
// by pg_basebackup, for failover tests: [Pair.KillPrimary] crashes the
// primary, [Pair.Promote] promotes the standby, and [Pair.DSN] names both
// servers with target_session_attrs=read-write, so that one URL reaches
// whichever server takes writes. Synchronous commit waits for the standby
// to flush the commit's WAL, not to replay it: a read on the standby may
// briefly lag, but a promoted standby has every commit the primary
// acknowledged.
//
// The server binaries come from `pg_config --bindir`, falling back to the
// newest /usr/lib/postgresql/*/bin. hack/test.sh installs them when missing.
// PostgreSQL refuses to run as root, so under root the server runs as the
// `postgres` system user that the Debian package creates.
package pgtest
