package packidx

import (
	"fmt"
	"runtime"
)

// mapping is a read-only memory map of a whole file. Mapping instead of
// reading is what keeps a cold lookup cheap: only the pages a binary search
// or an object's bytes touch are ever read from disk.
//
// Git never rewrites a pack or an index in place (it writes new files and
// renames or deletes old ones), and a deleted file stays mapped until it is
// unmapped, so a mapping stays valid while `git gc` runs. Git maps its
// packs the same way. The OS calls are in mmap_<os>.go: mmap(2) on unix;
// on Windows a file mapping, which also keeps git for Windows' gc from
// deleting the file until it is unmapped (see mmap_windows.go).
type mapping struct {
	data    []byte
	cleanup runtime.Cleanup
}

// mapFile maps path read-only. An empty file gives an empty mapping.
func mapFile(path string) (*mapping, error) {
	f, err := openForMap(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size == 0 {
		return &mapping{}, nil
	}
	if size != int64(int(size)) {
		return nil, fmt.Errorf("%s: %w: %d bytes do not fit in memory", path, ErrCorrupt, size)
	}
	data, err := mmap(f, int(size))
	if err != nil {
		return nil, fmt.Errorf("mmap %s: %w", path, err)
	}
	m := &mapping{data: data}
	// A Store dropped without Close (a Repo has no Close) still gives its
	// maps back once it is garbage. data holds no pointer to m, as
	// AddCleanup requires.
	m.cleanup = runtime.AddCleanup(m, func(b []byte) { _ = munmap(b) }, data)
	return m, nil
}

// close unmaps the file. Nothing may use the bytes afterwards: callers copy
// what they hand out (inflating always copies).
func (m *mapping) close() error {
	if m == nil || m.data == nil {
		return nil
	}
	m.cleanup.Stop()
	err := munmap(m.data)
	m.data = nil
	return err
}
