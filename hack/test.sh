#!/usr/bin/env bash
# Runs the whole test suite, installing PostgreSQL first if it is missing.
#
#   hack/test.sh                      # every package, and the image test
#   hack/test.sh ./pkg/sqlstorage/... # arguments go straight to go test
#
# Arguments replace the default ./... entirely, so name the packages when
# passing flags (hack/test.sh -run TestFoo ./pkg/...).
#
# The full log is kept at ${TMPDIR:-/tmp}/canopy-test.log, and the last line
# printed reads "N passed, N failed, N skipped".
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

have_postgres_server() {
	compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null && return 0
	# Non-Debian layouts (Homebrew, source builds) are found via pg_config,
	# just as internal/pgtest finds them.
	local bindir
	bindir=$(pg_config --bindir 2>/dev/null) && [[ -x $bindir/initdb ]]
}

if ! have_postgres_server; then
	if ! command -v apt-get >/dev/null; then
		echo "hack/test.sh: PostgreSQL server binaries not found and apt-get is unavailable; install the PostgreSQL server and rerun" >&2
		exit 1
	fi
	as_root() {
		if [[ $(id -u) -eq 0 ]]; then
			"$@"
		else
			sudo "$@"
		fi
	}
	echo "hack/test.sh: PostgreSQL server not found; installing it" >&2
	as_root apt-get update
	# Through env because sudo may drop DEBIAN_FRONTEND from the environment.
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
fi

# The whole suite starts physical clusters (e2e/pcluster) and drives Helm
# and Flux's kustomize-controller. Their binaries are built here, once and
# cached, so a cold build neither competes with running tests for the CPU
# nor counts against their timeout; named packages build them on demand
# instead.
if [[ $# -eq 0 ]]; then
	hack/tools/build.sh >/dev/null
fi

log="${TMPDIR:-/tmp}/canopy-test.log"
status=0

# The tests' files, and so the command lines of every process they start,
# are under a directory of this run's own. A package killed by its timeout
# runs no cleanup, and kwokctl detaches its clusters' processes beyond the
# reach of their parent's death, so what is still running under it at the
# end is stopped then, rather than loading the next run. The directory
# stays if a failed test left its hubs' logs in it.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/canopy-test.XXXXXX")
# mktemp makes it 0700; tests run as root start PostgreSQL as the postgres
# user (internal/pgtest), which must reach its directory inside.
chmod 0755 "$run_tmp"
trap 'pkill -KILL -f -- "$run_tmp/" || true; rmdir "$run_tmp" 2>/dev/null || true' EXIT
export TMPDIR=$run_tmp

# hack/tools/image is a module of its own, so ./... misses its test, which
# builds the syncer image with hack/image.sh and checks what is in it. It
# runs beside the rest, whose e2e tests spend much of their time waiting
# on processes, rather than adding its minutes after them; its output
# follows theirs in the log.
image_pid=""
if [[ $# -eq 0 ]]; then
	(cd hack/tools/image && GOWORK=off go test -count=1 -timeout 20m -v ./...) >"$log.image" 2>&1 &
	image_pid=$!
fi

# A package that runs out of time loses every result it had not printed,
# so its limit is well above what e2e takes (39 minutes in CI, more on a
# machine busy with other work) and below CI's 90.
go test -count=1 -timeout 60m -v "${@:-./...}" 2>&1 | tee "$log" || status=$?

if [[ -n $image_pid ]]; then
	wait "$image_pid" || status=$?
	tee -a "$log" <"$log.image"
	rm -f "$log.image"
fi

# CI keeps only the end of the output, so failed tests and packages (a panic
# or a timeout fails a package without a --- FAIL line) are named just above
# the count, each failed test with the last lines it logged: parallel tests'
# lines are interleaved, and go test heads each run of them with the name
# of the test they belong to.
awk '
	match($0, /^=== (RUN|CONT|NAME) +/) { test = substr($0, RLENGTH + 1); next }
	/^[[:space:]]+[^[:space:]]+_test\.go:[0-9]+: / {
		line = $0
		sub(/^[[:space:]]+/, "", line)
		n = ++count[test]
		said[test, n] = line
		next
	}
	# A message of several lines goes on, indented deeper.
	/^[[:space:]][[:space:]][[:space:]][[:space:]][[:space:]]+[^-[:space:]]/ && count[test] && length(said[test, count[test]]) < 400 {
		line = $0
		sub(/^[[:space:]]+/, "", line)
		said[test, count[test]] = said[test, count[test]] " / " line
		next
	}
	match($0, /^[[:space:]]*--- FAIL: [^ ]+/) {
		name = substr($0, RSTART, RLENGTH)
		sub(/^[[:space:]]*--- FAIL: /, "", name)
		failed[++nfailed] = name
	}
	END {
		for (i = 1; i <= nfailed; i++) {
			name = failed[i]
			for (n = count[name] > 3 ? count[name] - 2 : 1; n <= count[name]; n++) {
				line = said[name, n]
				if (length(line) > 400) line = substr(line, 1, 400) "…"
				printf "said by %s: %s\n", name, line
			}
		}
	}
' "$log"
grep -a -E -- '^[[:space:]]*--- FAIL|^FAIL[[:space:]]' "$log" | sed 's/^[[:space:]]*/failed: /' || true
# Subtests are indented, so leading whitespace is allowed.
awk '
	/^[[:space:]]*--- PASS/ { pass++ }
	/^[[:space:]]*--- FAIL/ { fail++ }
	/^[[:space:]]*--- SKIP/ { skip++ }
	END { printf "%d passed, %d failed, %d skipped\n", pass, fail, skip }
' "$log"
exit "$status"
