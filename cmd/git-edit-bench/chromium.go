package main

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/git-edit/git-edit/ops/texteditor"
	"github.com/git-edit/git-edit/repo/packidx/packtest"
)

// treeShape describes a wide, deep source tree like Chromium's: many files
// in tens of thousands of directories, up to MaxDepth deep, in one commit.
// Its layout comes from Seed alone (see layout).
type treeShape struct {
	Seed     uint64
	Dirs     int // directories, the root included; at least MaxDepth+1
	Files    int // generated files, at least Dirs
	MaxDepth int // the deepest directory's depth (the root's is 0)
	// MinSize and MaxSize bound a file's size, drawn log-uniformly.
	MinSize, MaxSize int
	// Extra files (slash paths) the commit adds too: the benchmark's own.
	Extra map[string][]byte
}

// chromiumShape is the Chromium-scale repository: about Chromium's 470,000
// files in 40,000 directories up to 12 deep, whose paths (about 58 bytes
// on average) make a git index of about 60 MB. Files are small (100 B to
// 4 KB): git status and git-edit read only the files they must, so what
// this shape measures is the count of files and directories, not their
// bytes, and the checkout stays about 2 GB.
var chromiumShape = treeShape{Seed: 28, Dirs: 40000, Files: 470000, MaxDepth: 12, MinSize: 100, MaxSize: 4000}

// smallShape100 is the Chromium-scale repository's small twin: 100 files of
// the same kind in a chain of 12 directories.
var smallShape100 = treeShape{Seed: 28, Dirs: 13, Files: 100, MaxDepth: 12, MinSize: 100, MaxSize: 4000}

// targetDepth is the depth of the directory of the file the Chromium-scale
// rows edit: a file at depth 10 is 10 directories down.
const targetDepth = 10

// depthWeights is how a tree's directories spread over the depths 1 to
// 12, after Chromium's: few at the top, most at 5 to 9.
var depthWeights = []float64{0.0008, 0.006, 0.03, 0.07, 0.12, 0.16, 0.17, 0.16, 0.12, 0.08, 0.05, 0.0332}

// chromiumExts are the file kinds of a Chromium checkout, the common ones
// repeated.
var chromiumExts = []string{".cc", ".cc", ".cc", ".h", ".h", ".h", ".py", ".js", ".ts", ".html", ".json", ".mojom", ".gn", ".java", ".md", ".txt"}

// layout returns the shape's directories (dirs[0] is the root, ""), each
// directory's depth, and its files' paths with the directory each is in.
// Directories are made depth by depth, each hung under a random directory
// one level up, so that every depth from 1 to MaxDepth has some; every
// directory holds at least one file, so git sees all of them.
func (s treeShape) layout() (dirs []string, depth []int, files []string, fileDir []int) {
	rng := rand.New(rand.NewPCG(s.Seed, 0x6368726f6d69756d)) // "chromium"
	word := func() string { return words[rng.IntN(len(words))] }

	// How many directories at each depth: by depthWeights (spread over
	// MaxDepth levels), at least one each.
	w := make([]float64, s.MaxDepth)
	for d := range w {
		w[d] = depthWeights[d*len(depthWeights)/s.MaxDepth]
	}
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	count := make([]int, s.MaxDepth)
	left := s.Dirs - 1
	for d := range count {
		count[d] = max(1, int(float64(s.Dirs-1)*w[d]/sum))
		left -= count[d]
	}
	for d := 0; left != 0; d = (d + 1) % s.MaxDepth { // rounding: add or take one a level
		if left > 0 {
			count[d]++
			left--
		} else if count[d] > 1 {
			count[d]--
			left++
		}
	}

	dirs, depth = []string{""}, []int{0}
	names := map[string]bool{} // every directory's path, for unique siblings
	prev := []int{0}           // the directories one level up
	for d := 1; d <= s.MaxDepth; d++ {
		var level []int
		for range count[d-1] {
			p := prev[rng.IntN(len(prev))]
			name := path.Join(dirs[p], word())
			for i := 2; names[name]; i++ {
				name = path.Join(dirs[p], word()+strconv.Itoa(i))
			}
			names[name] = true
			level = append(level, len(dirs))
			dirs = append(dirs, name)
			depth = append(depth, d)
		}
		prev = level
	}
	// Files: one in each directory first (the leaves need one), the rest
	// in directories drawn at random. The names are unique by the file's
	// number.
	for i := range s.Files {
		d := i % len(dirs)
		if i >= len(dirs) {
			d = rng.IntN(len(dirs))
		}
		name := word() + "_" + strconv.FormatInt(int64(i), 36) + chromiumExts[rng.IntN(len(chromiumExts))]
		files = append(files, path.Join(dirs[d], name))
		fileDir = append(fileDir, d)
	}
	return dirs, depth, files, fileDir
}

// targetDir is the directory of the files the Chromium-scale rows edit:
// the chromiumShape's first directory at targetDepth. Its small twin holds
// files at the same paths. (Computed once: the layout takes half a second.)
var targetDir = sync.OnceValue(func() string {
	dirs, depth, _, _ := chromiumShape.layout()
	return dirs[slices.Index(depth, targetDepth)]
})

// chromiumEdit is the 50 KB file the cold-edit row edits, in both trees.
func chromiumEdit() string { return targetDir() + "/bench_edit50k.cc" }

// withEdit is s with the cold-edit row's file.
func withEdit(s treeShape) treeShape {
	s.Extra = map[string][]byte{chromiumEdit(): textFile(50 << 10)}
	return s
}

// generateTree makes the repository of shape s in dir (which must not
// exist or be empty), branch main, one commit, by streaming the files into
// `git fast-import`: one pack, no loose objects, no checkout (cloneTree
// checks a copy out).
func generateTree(dir string, s treeShape) error {
	return fastImport(dir, nil, func(w io.Writer) error { return writeTree(w, s) })
}

// writeTree writes the fast-import stream of shape s to w: one commit of
// every file. A file's text names its path, so no two blobs are alike.
func writeTree(w io.Writer, s treeShape) error {
	_, _, files, _ := s.layout()
	rng := rand.New(rand.NewPCG(s.Seed, 1))
	bw := bufio.NewWriterSize(w, 1<<20)
	msg := fmt.Sprintf("a Chromium-scale tree: %d files in %d directories", s.Files, s.Dirs)
	fmt.Fprintf(bw, "commit refs/heads/main\nauthor Bench <bench@example.com> 1500000000 +0000\ncommitter Bench <bench@example.com> 1500000000 +0000\ndata %d\n%s\n", len(msg), msg)
	var b strings.Builder
	for _, p := range files {
		size := int(math.Exp(math.Log(float64(s.MinSize)) + rng.Float64()*math.Log(float64(s.MaxSize)/float64(s.MinSize))))
		b.Reset()
		b.WriteString("// " + p + "\n")
		for b.Len() < size {
			for n := 2 + rng.IntN(8); n > 0; n-- {
				b.WriteString(words[rng.IntN(len(words))])
				b.WriteByte(' ')
			}
			b.WriteString(";\n")
		}
		fmt.Fprintf(bw, "M 100644 inline %s\ndata %d\n%s\n", p, b.Len(), b.String())
	}
	for _, p := range slices.Sorted(maps.Keys(s.Extra)) {
		fmt.Fprintf(bw, "M 100644 inline %s\ndata %d\n", p, len(s.Extra[p]))
		bw.Write(s.Extra[p])
		bw.WriteString("\n")
	}
	bw.WriteString("\n")
	return bw.Flush()
}

// cloneTree makes dst a checked-out clone of the generated repository
// src, set up as a person's large checkout is: core.untrackedCache on, no
// fsmonitor. It commits files (slash paths) on top, as one ordinary
// commit, then runs git status until the index holds every file's stat
// data and the untracked cache is filled (past racy git's second), and
// checks that the worktree is clean. It returns how long it took.
func cloneTree(src, dst string, files map[string][]byte) (time.Duration, error) {
	start := time.Now()
	if _, err := os.Stat(dst); err == nil {
		return 0, fmt.Errorf("%s exists: give -out an empty or new directory", dst)
	}
	// checkout.workers=0: as many as CPUs, only for this checkout.
	if _, err := packtest.Git("", nil, "-c", "checkout.workers=0", "clone", "-q", src, dst); err != nil {
		return 0, err
	}
	for _, kv := range [][2]string{{"core.untrackedCache", "true"}, {"core.fsmonitor", "false"}} {
		if _, err := packtest.Git(dst, nil, "config", kv[0], kv[1]); err != nil {
			return 0, err
		}
	}
	if len(files) > 0 {
		var paths []string
		for _, p := range slices.Sorted(maps.Keys(files)) {
			f := filepath.Join(dst, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(f), 0o777); err != nil {
				return 0, err
			}
			if err := os.WriteFile(f, files[p], 0o644); err != nil {
				return 0, err
			}
			paths = append(paths, p)
		}
		if _, err := packtest.Git(dst, []byte(strings.Join(paths, "\n")+"\n"), "add", "--pathspec-from-file=-"); err != nil {
			return 0, err
		}
		if _, err := packtest.Git(dst, nil, "commit", "-q", "-m", "the benchmark's files"); err != nil {
			return 0, err
		}
	}
	// Files written in the second the index was written are racily clean:
	// git would re-read them on every status until an index written later
	// records them. Wait that second out, then let status write the index
	// (with the untracked cache) as a person's first status does.
	time.Sleep(1100 * time.Millisecond)
	for range 2 {
		out, err := packtest.Git(dst, nil, "status", "--porcelain")
		if err != nil {
			return 0, err
		}
		if out != "" {
			return 0, fmt.Errorf("%s is not clean after checkout:\n%.2000s", dst, out)
		}
	}
	return time.Since(start), nil
}

// trackedFiles returns the paths of the files git tracks in dir.
func trackedFiles(dir string) ([]string, error) {
	out, err := packtest.Git(dir, nil, "ls-files", "-z")
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(out, "\x00"), "\x00"), nil
}

// indexSize is the size of dir's git index, for the report.
func indexSize(dir string) string {
	fi, err := os.Stat(filepath.Join(dir, ".git", "index"))
	if err != nil {
		return "?"
	}
	return fmt.Sprintf("%.1f MB", float64(fi.Size())/1e6)
}

// diskUse is what du says dir takes, for the report.
func diskUse(dir string) string {
	out, err := exec.Command("du", "-sh", dir).Output()
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

// Labels of the Chromium-scale rows: they say the trees were generated.
const (
	chromiumLabel = "Chromium-scale (generated)"
	smallLabel    = "100-file (generated)"
)

// sessionsMade is how many sessions, of one real edit each, the
// Chromium-scale repository and its twin hold before the rows run.
const sessionsMade = 20

// firstPath is the file the first-edit row's round i edits, in a session
// of its own; sessionPath is the file sessionsMade's session i edits. Both
// are in targetDir, at depth 10.
func firstPath(i int) string   { return fmt.Sprintf("%s/bench_first_%04d.cc", targetDir(), i) }
func sessionPath(i int) string { return fmt.Sprintf("%s/bench_session_%02d.cc", targetDir(), i) }

// chromiumRun is the Chromium-scale repository and its small twin, each
// checked out for one run.
type chromiumRun struct {
	big, small  string   // the work clones
	record      []string // the files of big the record row changes
	smallRecord []string // the files of small the same row changes, untimed (see recordBoth)
	notes       []string
}

// setupChromium generates the Chromium-scale repository and its small
// twin into cache (once), clones and checks each out under out with
// files for firsts rounds of the first-edit row and for sessionsMade
// sessions committed on top (cloneTree), then makes those sessions there,
// each by one real cold `git-edit call` of bin.
func setupChromium(cache, out, bin string, firsts int, logf func(string, ...any)) (chromiumRun, error) {
	var r chromiumRun
	files := map[string][]byte{}
	for i := range firsts {
		files[firstPath(i)] = histFile(0)
	}
	for i := range sessionsMade {
		files[sessionPath(i)] = histFile(0)
	}
	for _, t := range []struct {
		shape       treeShape
		name, label string
		work        *string
	}{{chromiumShape, "chromium", chromiumLabel, &r.big}, {smallShape100, "small100", smallLabel, &r.small}} {
		logf("the %s repository", t.label)
		dir, took, err := cached(filepath.Join(cache, t.name), func(dir string) error { return generateTree(dir, withEdit(t.shape)) })
		if err != nil {
			return r, fmt.Errorf("generate the %s repository: %w", t.label, err)
		}
		*t.work = filepath.Join(out, t.name)
		d, err := cloneTree(dir, *t.work, files)
		if err != nil {
			return r, fmt.Errorf("check out the %s repository: %w", t.label, err)
		}
		for i := range sessionsMade {
			args := fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":%q}`, sessionPath(i), counterLine(0), counterLine(1))
			if _, err := callTool(*t.work, fmt.Sprintf("made%02d", i), false, bin, texteditor.ToolName, args); err != nil {
				return r, err
			}
		}
		// The record row's session starts here, untimed, in both (the
		// twin keeps the same sessions, for the sessions row): its first
		// record takes in the sessions' edits above (other sessions'
		// on-disk changes are synced into a session when it starts).
		cmd := exec.Command(bin, "record", "--session", "record", "-m", "before the rows")
		cmd.Dir, cmd.Env = *t.work, packtest.Env()
		if out, err := cmd.CombinedOutput(); err != nil {
			return r, fmt.Errorf("git-edit record in %s: %w\n%s", *t.work, err, out)
		}
		r.notes = append(r.notes, fmt.Sprintf("%s: %d files in %d directories up to %d deep, %d B to %d B, one commit, made by this benchmark (chromium.go), not a real checkout; %s; %s. "+
			"Checked out for this run by git clone (checkout.workers=0) with %d files of the rows committed on top and a git status, in %s: %s on disk, git index %s, core.untrackedCache=true, no fsmonitor; %d sessions of one edit each made before the rows",
			t.label, t.shape.Files+1, t.shape.Dirs, t.shape.MaxDepth, t.shape.MinSize, t.shape.MaxSize, objectCount(dir), took,
			len(files), d.Round(100*time.Millisecond), diskUse(*t.work), indexSize(*t.work), sessionsMade))
		logf("%s", r.notes[len(r.notes)-1])
	}
	r.notes = append(r.notes, fmt.Sprintf("%s record row: each round, before its 3 files, git-edit record syncs what the other rows' sessions left on disk since its last record (the cold edit's file and the first-edit row's, as another session's edits), as the big-index row syncs its cold edit's file; git status, beside it, lists them. After each timed record, the same record of 3 files runs untimed in the %s, so that both hold the same sessions for the sessions row", chromiumLabel, smallLabel))
	for _, c := range []struct {
		dir   string
		files *[]string
	}{{r.big, &r.record}, {r.small, &r.smallRecord}} {
		tracked, err := trackedFiles(c.dir)
		if err != nil {
			return r, err
		}
		for _, f := range []float64{0.1, 0.5, 0.9} {
			i := int(f * float64(len(tracked)))
			for strings.Contains(tracked[i], "/bench_") { // a generated file, not the rows' own
				i++
			}
			*c.files = append(*c.files, tracked[i])
		}
	}
	return r, nil
}
