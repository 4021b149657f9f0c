// Command git-edit-bench measures git-edit against the baselines a user
// would compare it with, side by side and interleaved in one run, and
// prints issue 14's and issue 28's targets as one Markdown table with the
// machine:
//
//	go run ./cmd/git-edit-bench [-quick] [-n 30] [-fresh] [-keep] [-out DIR] [-bin FILE] [-cache DIR]
//	                            [-history] [-repo DIR [-name NAME]] [-chromium=false]
//
// From the module's checkout it builds git-edit (or measures -bin) and a
// Go hello-world, and makes the repositories, cached under
// $TMPDIR/git-edit-bench-cache/<version> so that reruns start at once
// (-fresh makes them again):
//
//   - the subject, where most rows run: with -repo DIR, a clone of that
//     real repository (any clone; for the README, git's own) checked out
//     at its HEAD, with the benchmark's files (benchFiles: 50 KB, 1 MB
//     and 10 MB text files under bench/) added by one ordinary commit on
//     top, cached by DIR's HEAD commit, its rows labelled with -name
//     (default: DIR's base name); without -repo, a generated git-shaped
//     repository, 4,800 files in 300 directories and 6,500 commits, about
//     300,000 objects in one pack, from a fixed seed with `git
//     fast-import` (shaped.go; about 40 s on 2 cores), its rows labelled
//     "git-shaped (generated)" and the report saying it is not a real
//     repository;
//   - big-index (generated): 100,000 files, whose 8.8 MB index makes `git
//     commit` itself slow, kept as the case that flatters git-edit;
//   - Chromium-scale (generated), unless -chromium=false: 470,000 small
//     files in 40,000 directories up to 12 deep, one commit (chromium.go;
//     about 30 s and a 230 MB pack), checked out in each run by a clone
//     (about 20 s and 2.1 GB; its git index is about 63 MB), with
//     core.untrackedCache=true and no fsmonitor; and its small twin, 100
//     files of the same kind.
//
// Each run copies the subject twice into a work directory (a temporary
// one unless -out names it; removed at the end unless -keep): git-edit
// edits one copy, the git baselines commit in the other. The copies' pack
// files are hard links to the cache's (packs are never written again once
// made), everything else is copied. It takes a 2,000-edit and a 100-edit
// session in two more copies of the subject (made as an agent makes them,
// by MCP text_editor calls to git-edit's own server, see histsession.go;
// cached by the subject and the binary's id, since each build stores its
// objects its own way), and measures, each work right beside its
// baseline, alternating which goes first, the pairs in a rotating order
// (-history: the history rows only):
//
//   - a cold `git-edit call text_editor str_replace` of a 50 KB file
//     against `git add F && git commit -q` of the same change, in the
//     subject and in the big-index repository;
//   - `git-edit record` of 3 files a shell changed against `git status`,
//     in the big-index repository;
//   - `git-edit tools` against the hello-world (process start);
//   - a 10 MB str_replace against `sed -i` + `git add && git commit`, with
//     git-edit's peak RSS;
//   - `git-edit log -n 20` on a session of 1 MB edits against
//     `git log --numstat -20` of its ref;
//   - at Chromium scale, each against the same in the 100-file twin: a
//     cold str_replace of a 50 KB file at depth 10, the first edit of a
//     new session, and `git edit sessions` with 20 sessions made first;
//     and `git-edit record` of 3 files a shell changed against `git
//     status` there (run as a person's: it may write the index);
//   - the first edit of a path new to the session, show, diff, sessions,
//     undo, log -n 20 and edit_history on the 2,000-edit session against
//     the 100-edit one, then the packs the long session left and what
//     `git gc --auto` does after it;
//   - warm MCP str_replace through the official Go SDK client against the
//     MCP reference filesystem server's edit_file (installed with npm into
//     the cache; skipped, and said so, without node and npm), 50 KB and
//     1 MB, alternating calls;
//   - the fsyncs of one cold edit, counted by strace when there is one.
//
// Every cold run is a new process: each agent edit is one. No number here
// is asserted by a test; the tests check what can be checked without a
// clock (generation is reproducible and has the asked shape, a -repo
// clone is prepared clean, the built session is one git-edit reads, the
// table renders and says when its repository was generated).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-edit/git-edit/ops/texteditor"
	"github.com/git-edit/git-edit/repo/packidx/packtest"
)

func main() {
	var o options
	flag.StringVar(&o.out, "out", "", "work directory for the binaries and repository copies (default: a new temporary directory)")
	flag.StringVar(&o.cache, "cache", "", "directory of the generated repositories, kept between runs (default: $TMPDIR/git-edit-bench-cache/"+cacheVersion+")")
	flag.BoolVar(&o.keep, "keep", false, "keep the work directory when done")
	flag.BoolVar(&o.fresh, "fresh", false, "regenerate the cached repositories")
	flag.BoolVar(&o.quick, "quick", false, "a short run: 5 rounds (unless -n), one RSS run, a 2,000-edit session all the same")
	flag.IntVar(&o.n, "n", 0, "measured rounds of each pair (default 30; 5 with -quick)")
	flag.StringVar(&o.bin, "bin", "", "measure this git-edit binary instead of building one (to compare builds)")
	flag.BoolVar(&o.history, "history", false, "measure only the history rows (the 2,000-edit session against the 100-edit one)")
	flag.StringVar(&o.repo, "repo", "", "run the git-shaped rows in copies of a clone of this repository instead, the benchmark's files committed on top")
	flag.StringVar(&o.name, "name", "", "the -repo repository's name in the rows (default: its directory's base name)")
	flag.BoolVar(&o.chromium, "chromium", true, "measure the Chromium-scale rows (false: neither generate nor check out that repository)")
	flag.Parse()
	if err := run(o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "git-edit-bench: %v\n", err)
		os.Exit(1)
	}
}

// cacheVersion names the cache of generated repositories; bump it when a
// generator or the benchmark's files change.
const cacheVersion = "v2"

const (
	file50k   = "bench/file50k.txt"
	base50k   = "bench/base50k.txt" // in the big-index repository, the baseline's own copy, so git-edit's session never sees git's commits to it
	file10m   = "bench/big10m.txt"
	log1m     = "bench/log1m.txt"
	mcp50k    = "bench/mcp50k.txt"
	mcp1m     = "bench/mcp1m.txt"
	histDir   = "bench/hist" // the files the built sessions edit
	newDir    = "bench/new"  // files the history rows edit first, one per run
	histPaths = 40
	histDirs  = 8
	// bigEdits and smallEdits are the lengths of the two built sessions.
	bigEdits, smallEdits = 2000, 100
	// logEdits is the length of the session of 1 MB edits.
	logEdits = 25
)

type options struct {
	out, cache, bin    string
	keep, fresh, quick bool
	history, chromium  bool
	repo, name         string
	n                  int
}

// benchFiles are the files the git-shaped rows edit, in the generated
// repository's last commit or committed on top of -repo's clone.
func benchFiles() map[string][]byte {
	return map[string][]byte{
		file50k: textFile(50 << 10), file10m: textFile(10 << 20),
		log1m: textFile(1 << 20), mcp50k: textFile(50 << 10), mcp1m: textFile(1 << 20),
	}
}

// shapedSpec is gitShaped with the benchmark's files.
func shapedSpec() shape {
	s := gitShaped
	s.Extra = benchFiles()
	return s
}

// bigSpec is the 100,000-file repository.
var bigSpec = packtest.Spec{Files: 100000, Commits: 5, Touch: 5000, GC: true, Checkout: true,
	Extra: map[string][]byte{file50k: textFile(50 << 10), base50k: textFile(50 << 10)}}

func run(o options, stdout, logw io.Writer) (err error) {
	n := o.n
	if n == 0 {
		n = 30
		if o.quick {
			n = 5
		}
	}
	if n < 1 {
		return errors.New("-n must be at least 1")
	}
	if o.name != "" && o.repo == "" {
		return errors.New("-name names the -repo repository: give -repo too")
	}
	rssRuns := 3
	if o.quick {
		rssRuns = 1
	}
	logf := func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }
	loadStart := loadavg()

	out := o.out
	if out == "" {
		if out, err = os.MkdirTemp("", "git-edit-bench-"); err != nil {
			return err
		}
	} else if err := os.MkdirAll(out, 0o777); err != nil {
		return err
	}
	if out, err = filepath.Abs(out); err != nil {
		return err
	}
	if o.keep {
		defer fmt.Fprintf(logw, "kept %s\n", out)
	} else {
		defer os.RemoveAll(out)
	}
	cache := o.cache
	if cache == "" {
		cache = filepath.Join(os.TempDir(), "git-edit-bench-cache", cacheVersion)
	}
	if cache, err = filepath.Abs(cache); err != nil {
		return err
	}
	if o.fresh {
		logf("removing %s (-fresh)", cache)
		if err := os.RemoveAll(cache); err != nil {
			return err
		}
	}

	bin := o.bin
	if bin == "" {
		bin = filepath.Join(out, "git-edit")
		logf("building %s", bin)
		if err := build(bin); err != nil {
			return err
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		return err
	}
	if err := besideBin(bin); err != nil {
		return err
	}
	hello := filepath.Join(out, "hello")
	if err := buildHello(hello); err != nil {
		return err
	}

	// The repositories, from the cache or made now: the git-shaped rows'
	// (generated, or a clone of -repo's), the big-index one, and the
	// Chromium-scale one with its small twin.
	var notes []string
	var subj subject
	if o.repo != "" {
		if subj, err = repoSubject(o.repo, o.name, cache); err != nil {
			return err
		}
	} else {
		shapedCache, took, err := cached(filepath.Join(cache, "shaped"), func(dir string) error { return generateShaped(dir, shapedSpec()) })
		if err != nil {
			return fmt.Errorf("generate the git-shaped repository: %w", err)
		}
		subj = shapedSubject(shapedCache, took)
	}
	notes = append(notes, subj.note)
	logf("%s", subj.note)
	var bigCache, took string
	if !o.history {
		bigCache, took, err = cached(filepath.Join(cache, "big"), func(dir string) error { return packtest.Generate(dir, bigSpec) })
		if err != nil {
			return fmt.Errorf("generate the big-index repository: %w", err)
		}
		notes = append(notes, fmt.Sprintf("%s: %d files, %s; %s", bigLabel, bigSpec.Files+len(bigSpec.Extra), objectCount(bigCache), took))
		logf("%s", notes[len(notes)-1])
	}

	// The sessions the history rows read, built by real MCP edits of
	// this very binary (each build stores its objects its own way), in
	// copies of the subject, cached by its key and the binary's id.
	binID, err := binaryID(bin)
	if err != nil {
		return err
	}
	newFiles := max(n+2, 64)
	histCache := map[int]string{}
	for _, edits := range []int{bigEdits, smallEdits} {
		dir := filepath.Join(cache, fmt.Sprintf("hist%d-new%d-%s-%s", edits, newFiles, subj.key, binID))
		histCache[edits], took, err = cached(dir, func(tmp string) error {
			if err := os.Remove(tmp); err != nil { // copyRepo makes it
				return err
			}
			if err := copyRepo(subj.base, tmp); err != nil {
				return err
			}
			return prepareHistory(tmp, bin, edits, newFiles)
		})
		if err != nil {
			return fmt.Errorf("build the %d-edit session: %w", edits, err)
		}
		notes = append(notes, fmt.Sprintf("%d-edit session in %s, made by %d MCP text_editor calls: %s; %s", edits, subj.label, edits, objectCount(histCache[edits]), took))
		logf("%s", notes[len(notes)-1])
	}

	// The work copies. The subject's are twins: git-edit edits one, the
	// git baseline commits in the other, so that neither sees the other's
	// commits; each starts as the same copy of the cache.
	shaped, shapedGit, big := filepath.Join(out, "repo-git-edit"), filepath.Join(out, "repo-git"), filepath.Join(out, "big")
	hLong, h100 := filepath.Join(out, fmt.Sprintf("hist%d", bigEdits)), filepath.Join(out, "hist100")
	copies := []struct{ from, to string }{{histCache[bigEdits], hLong}, {histCache[smallEdits], h100}}
	if !o.history {
		copies = append(copies, struct{ from, to string }{subj.base, shaped}, struct{ from, to string }{subj.base, shapedGit},
			struct{ from, to string }{bigCache, big})
	}
	for _, c := range copies {
		start := time.Now()
		if err := copyRepo(c.from, c.to); err != nil {
			return err
		}
		logf("copied %s in %s", c.to, time.Since(start).Round(time.Millisecond))
	}
	var chrom chromiumRun
	if o.chromium && !o.history {
		if chrom, err = setupChromium(cache, out, bin, n+2, logf); err != nil {
			return err
		}
		notes = append(notes, chrom.notes...)
	}

	counters := map[string]int{} // per repo and file: the value of its counter line
	edit := func(dir, session, file string) func(bool) (sample, error) {
		return func(rss bool) (sample, error) {
			key := dir + "\x00" + file
			c := counters[key]
			s, err := callTool(dir, session, rss, bin, texteditor.ToolName,
				fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":%q}`, file, counterLine(c), counterLine(c+1)))
			if err == nil {
				counters[key] = c + 1
			}
			return s, err
		}
	}
	// gitCommit makes the same change with git: sed -i when withSed (a
	// process, as an agent's shell edit is), else a rewrite of the file
	// by this program, untimed.
	gitCommit := func(dir, file string, withSed bool) func(bool) (sample, error) {
		return func(rss bool) (sample, error) {
			key := dir + "\x00" + file
			c := counters[key]
			var total sample
			add := func(s sample) { total.d += s.d; total.rss = max(total.rss, s.rss) }
			if withSed {
				s, _, err := timed(dir, nil, nil, rss, "sed", "-i", fmt.Sprintf("s/%s/%s/", counterLine(c), counterLine(c+1)), file)
				if err != nil {
					return s, err
				}
				add(s)
			} else if err := replaceInFile(filepath.Join(dir, file), counterLine(c), counterLine(c+1)); err != nil {
				return sample{}, err
			}
			for _, args := range [][]string{{"add", file}, {"commit", "-q", "-m", fmt.Sprintf("counter %d", c+1)}} {
				s, _, err := timed(dir, nil, nil, rss, "git", args...)
				if err != nil {
					return s, err
				}
				add(s)
			}
			counters[key] = c + 1
			return total, nil
		}
	}
	proc := func(dir string, stdin string, name string, args ...string) func(bool) (sample, error) {
		return func(rss bool) (sample, error) {
			var in io.Reader
			if stdin != "" {
				in = strings.NewReader(stdin)
			}
			s, _, err := timed(dir, nil, in, rss, name, args...)
			return s, err
		}
	}
	ser := func(name string, run func(bool) (sample, error)) *series { return &series{name: name, run: run} }

	if !o.history {
		// A session of 1 MB edits for log, made by git-edit itself.
		logf("making a session of %d edits of a 1 MB file", logEdits)
		for range logEdits {
			if _, err := edit(shaped, "log1m", log1m)(false); err != nil {
				return err
			}
		}
	}

	type target struct {
		p     *pair
		ratio float64
	}
	var targets []target
	add := func(a, b *series, ratio float64, rss bool) *pair {
		p := &pair{a: a, b: b, rss: rss}
		targets = append(targets, target{p, ratio})
		return p
	}
	var tenMB *pair
	if !o.history {
		L := subj.label
		add(ser("cold git-edit str_replace, 50 KB, "+L, edit(shaped, "cold", file50k)),
			ser("git add && git commit -q, "+L, gitCommit(shapedGit, file50k, false)), 0.3, true)
		add(ser("cold git-edit str_replace, 50 KB, "+bigLabel, edit(big, "cold", file50k)),
			ser("git add && git commit -q, "+bigLabel, gitCommit(big, base50k, false)), 0.15, false)
		add(ser("git-edit record, 3 files changed by the shell, "+bigLabel, recordThree(big, bin, bigRecordFiles)),
			ser("git status, "+bigLabel, proc(big, "", "git", "status")), 2, false)
		add(ser("git-edit tools (process start)", proc(shaped, "", bin, "tools")),
			ser("Go hello-world", proc(shaped, "", hello)), 2, false)
		tenMB = add(ser("cold git-edit str_replace, 10 MB, "+L, edit(shaped, "big", file10m)),
			ser("sed -i + git add && git commit -q, "+L, gitCommit(shapedGit, file10m, true)), 0.5, true)
		add(ser("git-edit log -n 20, session of 1 MB edits, "+L, proc(shaped, "", bin, "log", "-n", "20", "--session", "log1m")),
			ser("git log --numstat -20 of its ref", proc(shaped, "", "git", "log", "--numstat", "-20", "refs/edits/log1m")), 0.5, false)
	}
	if chrom.big != "" {
		// The Chromium-scale rows: the same work in the large tree and in
		// its 100-file twin, but for record, whose baseline is git status
		// there (run as a person's is: it may write the index).
		C, S := chromiumLabel, smallLabel
		edit50k := chromiumEdit()
		add(ser("cold git-edit str_replace, 50 KB at depth 10, "+C, edit(chrom.big, "cold", edit50k)),
			ser("the same, "+S, edit(chrom.small, "cold", edit50k)), 1.2, false)
		// The twin's record session gets the same record, untimed, so that
		// the sessions row compares the same sessions in both.
		recordBig, recordSmall := recordThree(chrom.big, bin, chrom.record), recordThree(chrom.small, bin, chrom.smallRecord)
		recordBoth := func(rss bool) (sample, error) {
			s, err := recordBig(rss)
			if err == nil {
				_, err = recordSmall(false)
			}
			return s, err
		}
		add(ser("git-edit record, 3 files changed by the shell, "+C, recordBoth),
			ser("git status, "+C, proc(chrom.big, "", "git", "status")), 1, false)
		firstEdit := func(dir string) func(bool) (sample, error) {
			i := 0
			return func(rss bool) (sample, error) {
				if i >= n+2 {
					return sample{}, fmt.Errorf("no first-edit file left in %s", dir)
				}
				args := fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":%q}`, firstPath(i), counterLine(0), counterLine(1))
				s, err := callTool(dir, fmt.Sprintf("first%04d", i), rss, bin, texteditor.ToolName, args)
				i++
				return s, err
			}
		}
		add(ser("first edit of a new session (depth 10), "+C, firstEdit(chrom.big)),
			ser("the same, "+S, firstEdit(chrom.small)), 1.2, false)
		add(ser(fmt.Sprintf("git edit sessions (%d made first, and the rows' own), %s", sessionsMade, C), proc(chrom.big, "", bin, "sessions")),
			ser("the same, "+S, proc(chrom.small, "", bin, "sessions")), 1.2, false)
	}
	next := map[string]int{}
	newEdit := func(dir string) func(bool) (sample, error) {
		return func(rss bool) (sample, error) {
			i := next[dir]
			if i >= newFiles {
				return sample{}, fmt.Errorf("no new file left in %s", dir)
			}
			next[dir]++
			return edit(dir, "hist", fmt.Sprintf("%s/n%04d.txt", newDir, i))(rss)
		}
	}
	hist := func(what string, run func(dir string) func(bool) (sample, error)) {
		add(ser(fmt.Sprintf("%s, %d-edit session, %s", what, bigEdits, subj.label), run(hLong)),
			ser(fmt.Sprintf("%d-edit session", smallEdits), run(h100)), 1.5, false)
	}
	gitEdit := func(stdin string, args ...string) func(string) func(bool) (sample, error) {
		return func(dir string) func(bool) (sample, error) { return proc(dir, stdin, bin, args...) }
	}
	hist("first edit of a path new to the session", newEdit)
	hist("show hist~5", gitEdit("", "show", "--session", "hist", "hist~5"))
	hist("diff", gitEdit("", "diff", "--session", "hist"))
	hist("sessions", gitEdit("", "sessions"))
	hist("undo", gitEdit("", "undo", "--session", "hist"))
	hist("log -n 20", gitEdit("", "log", "-n", "20", "--session", "hist"))
	hist("call edit_history {\"n\":5}", gitEdit(`{"n":5}`, "call", "--session", "hist", "edit_history"))

	var pairs []*pair
	for _, t := range targets {
		pairs = append(pairs, t.p)
	}
	logf("measuring %d rounds of %d pairs, interleaved", n, len(pairs))
	if err := interleave(pairs, n, logf); err != nil {
		return err
	}
	// Peak memory is measured in runs of its own: its wrapper costs a
	// millisecond or so that the timings above must not include.
	for range rssRuns {
		for _, p := range pairs {
			if !p.rss {
				continue
			}
			for _, s := range []*series{p.a, p.b} {
				smp, err := s.run(true)
				if err != nil {
					return fmt.Errorf("%s: %w", s.name, err)
				}
				s.rss = max(s.rss, smp.rss)
			}
		}
	}

	var rows []row
	for _, t := range targets {
		rows = append(rows, pairRow(t.p, t.ratio))
		if t.p == tenMB {
			limit := int64(3*(10<<20) + 30<<20)
			rows = append(rows, row{work: "peak RSS of the 10 MB str_replace, " + subj.label, med: mib(tenMB.a.rss),
				baseline: "largest process of the baseline", bmed: mib(tenMB.b.rss),
				target: "≤ 3 × 10 MiB + 30 MiB = " + mib(limit), verdict: verdict(tenMB.a.rss <= limit)})
		}
	}

	if !o.history {
		// Warm MCP.
		entry, err := refServer(cache, logf)
		if err != nil {
			rows = append(rows, row{work: "warm MCP str_replace, 50 KB and 1 MB", verdict: "not measured: " + err.Error()})
		} else {
			logf("measuring %d warm MCP calls of each server at 50 KB and 1 MB, alternating", n)
			refDir := filepath.Join(out, "refserver")
			if err := os.MkdirAll(refDir, 0o777); err != nil {
				return err
			}
			node, _ := exec.LookPath("node")
			mp, err := mcpPairs(context.Background(), bin, node, entry, shaped, subj.label, refDir, map[int]string{50 << 10: mcp50k, 1 << 20: mcp1m}, n)
			if err != nil {
				return err
			}
			// The targets: at most the reference server's time at
			// 50 KB, at most half of it at 1 MB (mp is in that order).
			for i, p := range mp {
				rows = append(rows, pairRow(p, []float64{1.0, 0.5}[i]))
			}
			// What no committing edit can go below on this disk: the five
			// fsyncs an edit makes, with nothing else.
			// In git-edit's copy of the subject, where its edits write.
			floorDir := filepath.Join(shaped, ".git", "bench-floor")
			if err := os.MkdirAll(floorDir, 0o777); err != nil {
				return err
			}
			floor, err := fsyncFloor(floorDir, n)
			if err != nil {
				return err
			}
			ref := durations(mp[0].b.samples)
			rows = append(rows, row{work: "physical floor: a 50 KB file and four 300 B files written and fsynced, in process, in " + subj.label + "'s .git",
				med: ms(quantile(floor, 0.5)), p90: ms(quantile(floor, 0.9)), baseline: mp[0].b.name, bmed: ms(quantile(ref, 0.5)),
				ratio: fmt.Sprintf("%.3g", float64(quantile(floor, 0.5))/float64(quantile(ref, 0.5)))})
			notes = append(notes, "reference server: "+refServerPkg[:strings.LastIndex(refServerPkg, "@")]+" "+refVersion(entry))
		}

		// fsyncs of one cold edit.
		if _, err := exec.LookPath("strace"); err != nil {
			rows = append(rows, row{work: "fsync + fdatasync calls of one cold edit", target: "≤ 5", verdict: "not measured: strace is missing (apt-get install strace)"})
		} else {
			c := counters[shaped+"\x00"+file50k]
			mine, err := straceFsyncs(shaped, strings.NewReader(fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":%q}`, file50k, counterLine(c), counterLine(c+1))),
				bin, "call", "--session", "cold", texteditor.ToolName)
			if err != nil {
				return err
			}
			counters[shaped+"\x00"+file50k] = c + 1
			c = counters[shapedGit+"\x00"+file50k]
			if err := replaceInFile(filepath.Join(shapedGit, file50k), counterLine(c), counterLine(c+1)); err != nil {
				return err
			}
			theirs, err := straceFsyncs(shapedGit, nil, "sh", "-c", fmt.Sprintf("git add %s && git commit -q -m 'counter %d'", file50k, c+1))
			if err != nil {
				return err
			}
			counters[shapedGit+"\x00"+file50k] = c + 1
			rows = append(rows, row{work: "fsync + fdatasync calls of one cold edit (strace -f), " + subj.label, med: fmt.Sprint(mine),
				baseline: "git add && git commit -q", bmed: fmt.Sprint(theirs), target: "≤ 5", verdict: verdict(mine <= 5)})
		}
	}

	// What the long session left for the person's git: its packs, and
	// whether the `git gc --auto` that their next commit runs would start
	// (run last, in the work copy, since it may repack it).
	notes = append(notes, fmt.Sprintf("after the %d-edit session: %s", bigEdits, objectCount(hLong)))
	gc := exec.Command("git", "-c", "gc.autoDetach=false", "gc", "--auto")
	gc.Dir, gc.Env = hLong, packtest.Env()
	gcOut, gcErr := gc.CombinedOutput()
	switch {
	case gcErr != nil:
		notes = append(notes, fmt.Sprintf("git gc --auto after the %d-edit session failed: %v %s", bigEdits, gcErr, gcOut))
	case len(gcOut) == 0:
		notes = append(notes, fmt.Sprintf("git gc --auto after the %d-edit session printed nothing (no repack started)", bigEdits))
	default:
		notes = append(notes, fmt.Sprintf("git gc --auto after the %d-edit session started a repack: %q; then %s", bigEdits, strings.TrimSpace(string(gcOut)), objectCount(hLong)))
	}

	writeReport(stdout, rows, notes, n, rssRuns, loadStart, loadavg())
	return nil
}

// writeReport prints the table, then how it was measured, the machine,
// and the notes, one line each: which repositories the rows ran in (a
// generated one says so) and how the caches were made.
func writeReport(w io.Writer, rows []row, notes []string, n, rssRuns int, loadStart, loadEnd string) {
	fmt.Fprintln(w)
	renderTable(w, rows)
	fmt.Fprintf(w, "\nMedians and p90 of %d rounds; each work ran right beside its baseline, alternating which went first, the pairs in a rotating order. "+
		"The ratio is median over median; in brackets, p10–p90 of the rounds' own ratios, the spread. "+
		"Warm MCP rows: round trips through the official Go SDK client, each server up through all its calls. "+
		"Peak RSS: the largest of %d more runs, %s. "+
		"Rows labelled (generated) ran in repositories this benchmark generated, not in real ones.\n", n, rssRuns, rssHow())
	fmt.Fprintf(w, "\nMachine: %s. Load average %s at the start, %s at the end.", machine(), loadStart, loadEnd)
	if loaded(loadStart) || loaded(loadEnd) {
		fmt.Fprint(w, " The machine was loaded (a load average above its CPU count): the timings are noisy; read the ratios and their spread, and rerun on a quiet machine to confirm.")
	}
	fmt.Fprintln(w)
	for _, note := range notes {
		fmt.Fprintf(w, "- %s\n", note)
	}
}

func rssHow() string {
	if _, err := os.Stat(timeCmd); err != nil {
		return "from rusage, an upper bound (it includes this program's own peak; install GNU time for exact figures)"
	}
	return "measured by " + timeCmd
}

// callTool runs one cold `git-edit call` and checks that it succeeded.
func callTool(dir, session string, rss bool, bin, tool, args string) (sample, error) {
	s, stdout, err := timed(dir, nil, strings.NewReader(args), rss, bin, "call", "--session", session, tool)
	if err != nil {
		return s, err
	}
	var res struct{ Status, Message string }
	if err := json.Unmarshal(stdout, &res); err != nil || res.Status != "success" {
		return s, fmt.Errorf("git-edit call in %s: %s", dir, stdout)
	}
	return s, nil
}

// replaceInFile replaces the first old in the file with new.
func replaceInFile(p, old, new string) error {
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if !strings.Contains(string(b), old) {
		return fmt.Errorf("%s has no %q", p, old)
	}
	return os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
}

// textFile returns about size bytes of source-like text: numbered lines and
// one counter line in the middle, which each edit advances.
func textFile(size int) []byte {
	var b strings.Builder
	b.Grow(size + 100)
	counter := false
	for i := 0; b.Len() < size; i++ {
		if b.Len() >= size/2 && !counter {
			b.WriteString(counterLine(0) + "\n")
			counter = true
		}
		fmt.Fprintf(&b, "\tline %07d: the quick brown fox jumps over the lazy dog (%d)\n", i, i*7919%100003)
	}
	return []byte(b.String())
}

// counterLine is the one line of a bench file an edit changes; the ";"
// keeps "counter: 1" from matching inside "counter: 12".
func counterLine(c int) string { return fmt.Sprintf("counter: %d;", c) }

// bigLabel names the big-index repository in the rows.
const bigLabel = "big-index (generated)"

// bigRecordFiles are the files of the big-index repository the record row
// changes, as a shell command would, before each timed `git-edit record`.
var bigRecordFiles = []string{packtest.Path(10), packtest.Path(50_010), packtest.Path(99_990)}

// recordThree changes the three files (untimed: the shell's part), then
// times one cold `git-edit record` of them in session "record", and checks
// that it recorded a commit.
func recordThree(dir, bin string, recordFiles []string) func(bool) (sample, error) {
	round := 0
	return func(rss bool) (sample, error) {
		round++
		for _, f := range recordFiles {
			p := filepath.Join(dir, f)
			b, err := os.ReadFile(p)
			if err != nil {
				return sample{}, err
			}
			if err := os.WriteFile(p, fmt.Appendf(b, "// shell edit %d\n", round), 0o644); err != nil {
				return sample{}, err
			}
		}
		s, out, err := timed(dir, nil, nil, rss, bin, "record", "--session", "record", "-m", fmt.Sprintf("shell edit %d", round))
		if err == nil && !strings.Contains(string(out), "3 files changed") {
			err = fmt.Errorf("git-edit record in %s recorded something else: %s", dir, out)
		}
		return s, err
	}
}
