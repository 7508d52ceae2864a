package proc

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Build builds the command of package pkg, as
// github.com/canopy-dev/canopy/cmd/hub, and returns the binary's path.
func Build(tb testing.TB, pkg string) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), filepath.Base(pkg))
	build := exec.Command("go", "build", "-o", bin, pkg)
	if out, err := build.CombinedOutput(); err != nil {
		tb.Fatalf("building %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// Process is a process a benchmark started.
type Process struct {
	Cmd *exec.Cmd
	// LogPath holds what it printed, stdout and stderr.
	LogPath string
}

// stopTimeout is how long a process has to exit after an interrupt before
// it is killed.
const stopTimeout = 15 * time.Second

// Start starts bin with args, its output in logPath, and stops it when tb
// ends: an interrupt, then a kill if it has not exited within
// stopTimeout. It is killed, too, should the benchmark die first.
func Start(tb testing.TB, logPath, bin string, args ...string) *Process {
	tb.Helper()
	logFile, err := os.Create(logPath)
	if err != nil {
		tb.Fatal(err)
	}
	p := &Process{Cmd: exec.Command(bin, args...), LogPath: logPath}
	p.Cmd.Stdout, p.Cmd.Stderr = logFile, logFile
	// A benchmark ended by go test's timeout, or killed, runs no cleanup.
	p.Cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := p.Cmd.Start(); err != nil {
		logFile.Close()
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = p.Cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = p.Cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(stopTimeout):
			_ = p.Cmd.Process.Kill()
			<-done
			tb.Logf("%s did not exit within %v of an interrupt and was killed", filepath.Base(bin), stopTimeout)
		}
		logFile.Close()
	})
	return p
}

// PID is the process's id.
func (p *Process) PID() int { return p.Cmd.Process.Pid }

// Log is what the process has printed so far.
func (p *Process) Log() string {
	b, err := os.ReadFile(p.LogPath)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// LogTail is the last 4,000 bytes the process printed, for an error
// message.
func (p *Process) LogTail() string {
	log := p.Log()
	if len(log) > 4000 {
		log = log[len(log)-4000:]
	}
	return log
}

// RSSKiB is the resident memory of process pid (VmRSS), or -1 when it
// cannot be read.
func RSSKiB(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			kib, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kib
		}
	}
	return -1
}

// userHZ is the unit of the CPU times in /proc/<pid>/stat: USER_HZ, 100
// on Linux whatever the kernel's own tick rate.
const userHZ = 100

// CPUTime is the CPU time process pid has used so far, user and system.
func CPUTime(pid int) (time.Duration, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields are counted after the command name, which is in
	// parentheses and may itself hold spaces: state is the first, utime
	// the 12th and stime the 13th.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name in %q", pid, stat)
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields after the command name", pid, len(f))
	}
	var ticks int64
	for _, field := range f[11:13] {
		n, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}

// MachineCPU is the CPU time all the machine's CPUs have spent busy, and
// in all, since boot, from the first line of /proc/stat.
func MachineCPU() (busy, total time.Duration, err error) {
	stat, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, err
	}
	line, _, _ := strings.Cut(string(stat), "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0, 0, fmt.Errorf("/proc/stat starts with %q", line)
	}
	var ticks, idle int64
	for i, field := range f[1:] {
		n, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/stat: %w", err)
		}
		// guest and guest_nice are counted in user and nice already.
		if i >= 8 {
			break
		}
		ticks += n
		// idle and iowait.
		if i == 3 || i == 4 {
			idle += n
		}
	}
	return time.Duration(ticks-idle) * time.Second / userHZ, time.Duration(ticks) * time.Second / userHZ, nil
}
