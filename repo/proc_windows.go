//go:build windows

package repo

import (
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// ownGroup starts cmd in a process group of its own (so that a Ctrl-C
// meant for git-edit's console does not reach git's filters first);
// killGroup ends it with the processes it started.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// killGroup kills a process started with ownGroup and, first, every
// process it started that still runs, and theirs (the filters git runs
// hold its pipes and would keep a reader waiting after git is gone).
// Windows has no process groups to signal, so the tree is found through a
// snapshot of the processes: a child is one whose parent id is a member's
// and that was created after that member (a parent id can be a reused
// one). A process whose parent already ended when the snapshot is taken is
// not found: the window is a filter that outlives the git that started it.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	root := uint32(cmd.Process.Pid)
	for _, pid := range descendants(root) {
		if h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, pid); err == nil {
			windows.TerminateProcess(h, 1)
			windows.CloseHandle(h)
		}
	}
	return cmd.Process.Kill()
}

// descendants lists the processes started, directly or not, by pid and
// still running, children before their parents' parents (any order in
// which killing each one leaves none orphaned before it is found).
func descendants(pid uint32) []uint32 {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil
	}
	defer windows.CloseHandle(snap)
	children := map[uint32][]uint32{}
	var e windows.ProcessEntry32
	e.Size = uint32(unsafe.Sizeof(e))
	for err := windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		if e.ProcessID != e.ParentProcessID {
			children[e.ParentProcessID] = append(children[e.ParentProcessID], e.ProcessID)
		}
	}
	var out []uint32
	seen := map[uint32]bool{pid: true}
	var walk func(parent uint32, born windows.Filetime)
	walk = func(parent uint32, born windows.Filetime) {
		for _, c := range children[parent] {
			t, ok := creationTime(c)
			if seen[c] || !ok || t.Nanoseconds() < born.Nanoseconds() {
				continue // not this parent's child: its parent id was reused
			}
			seen[c] = true
			walk(c, t)
			out = append(out, c)
		}
	}
	if born, ok := creationTime(pid); ok {
		walk(pid, born)
	}
	return out
}

// creationTime is when process pid was created.
func creationTime(pid uint32) (windows.Filetime, bool) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return windows.Filetime{}, false
	}
	defer windows.CloseHandle(h)
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return windows.Filetime{}, false
	}
	return created, true
}
