package proc

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// statFields is the fields of /proc/<pid>/stat after the command name,
// which is in parentheses and may itself hold spaces, and that name:
// state is field 0, ppid 1, utime 11, stime 12, cutime 13 and cstime 14.
func statFields(pid int) (comm string, fields []string, err error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", nil, err
	}
	open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
	if open < 0 || end < open {
		return "", nil, fmt.Errorf("/proc/%d/stat: no command name in %q", pid, stat)
	}
	f := strings.Fields(string(stat[end+1:]))
	if len(f) < 15 {
		return "", nil, fmt.Errorf("/proc/%d/stat: %d fields after the command name", pid, len(f))
	}
	return string(stat[open+1 : end]), f, nil
}

// Children is the pids of the live processes whose parent is ppid.
func Children(ppid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, f, err := statFields(pid); err == nil && f[1] == strconv.Itoa(ppid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Named is those of pids whose command name is comm.
func Named(pids []int, comm string) []int {
	var named []int
	for _, pid := range pids {
		if c, _, err := statFields(pid); err == nil && c == comm {
			named = append(named, pid)
		}
	}
	return named
}

// TreeCPUTime is the CPU time, user and system, that process pid and
// all its descendants have used so far: those that exited and were
// reaped count through pid's cutime and cstime, the live ones are read
// one by one. A server that forks a process per connection, as
// PostgreSQL does, is measured whole this way.
func TreeCPUTime(pid int) (time.Duration, error) {
	_, f, err := statFields(pid)
	if err != nil {
		return 0, err
	}
	var ticks int64
	for _, field := range f[11:15] {
		n, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	total := time.Duration(ticks) * time.Second / userHZ
	for _, child := range Children(pid) {
		// A child that exits meanwhile is counted in neither place
		// until reaped: a tick or two at most.
		if d, err := TreeCPUTime(child); err == nil {
			total += d
		}
	}
	return total, nil
}
