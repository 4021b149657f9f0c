package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// sh runs a shell command in dir, as an agent's shell tool would.
func sh(t *testing.T, dir, script string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = gittest.Env()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sh -c %q: %v\n%s", script, err, out)
	}
}

// nameStatus is `git show --name-status` of rev, without rename detection
// (a move is a deletion and a creation, as the session records it), sorted.
func nameStatus(t *testing.T, dir, rev string) []string {
	t.Helper()
	out := strings.TrimSpace(gittest.Git(t, dir, "show", "--no-renames", "--name-status", "--format=", rev))
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = strings.ReplaceAll(l, "\t", " ")
	}
	sort.Strings(lines)
	return lines
}

// Issue 16, "Done when": record after sed -i, mv, rm and a new file is one
// commit with exactly those paths; ignored files stay out; a second record
// records nothing; undo of the record commit restores the files byte for
// byte; git fsck --strict is clean and HEAD, index and branches untouched.
func TestRecordShellEdits(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{
		"app.txt":     "alpha\r\nbeta\r\n", // CRLF stays CRLF
		"old.txt":     "old\n",
		"move/src.sh": "#!/bin/sh\necho hi\n",
		"keep.txt":    "keep\n",
		"ro.txt":      "read-only\n",
		".gitignore":  "*.log\nbuild/\n",
	})
	sh(t, dir, "chmod +x move/src.sh && git add move/src.sh && git commit -qm exec")
	root := []string{"--root", dir}
	// The agent edits keep.txt through git-edit; its shell then puts the
	// file back to HEAD's bytes: git status sees nothing, the session does.
	if r := runCLI(t, `{"command":"str_replace","path":"keep.txt","old_str":"keep","new_str":"kept"}`, append([]string{"call"}, append(root, "text_editor")...)...); r.code != 0 {
		t.Fatalf("call: %d %s %s", r.code, r.stdout, r.stderr)
	}
	before := map[string]string{}
	for _, p := range []string{"app.txt", "old.txt", "move/src.sh", "keep.txt", "ro.txt"} {
		before[p] = gittest.ReadFile(t, dir, p)
	}
	headBefore, indexBefore := gittest.Rev(t, dir, "HEAD"), gittest.Git(t, dir, "ls-files", "-s", "--debug")
	sh(t, dir, `sed -i 's/beta/gamma/' app.txt && mv move/src.sh move/dst.sh && rm old.txt && printf 'new\n' > new.txt &&
		git show HEAD:keep.txt > keep.txt && chmod u+w ro.txt && echo more >> ro.txt && chmod a-w ro.txt &&
		echo noise > build.log && mkdir -p build && echo out > build/out.txt`)
	tip := gittest.Rev(t, dir, "refs/edits/default")

	r := runCLI(t, "", append([]string{"record", "-m", "sed -i 's/beta/gamma/' app.txt && mv …\nthe shell command that ran"}, root...)...)
	if r.code != 0 {
		t.Fatalf("record: %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	rec := gittest.Rev(t, dir, "refs/edits/default")
	if got := gittest.Rev(t, dir, "refs/edits/default~1"); got != tip {
		t.Fatalf("the record commit's parent is %s, want the previous tip %s", got, tip)
	}
	want := []string{"A move/dst.sh", "A new.txt", "D move/src.sh", "D old.txt", "M app.txt", "M keep.txt", "M ro.txt"}
	if got := nameStatus(t, dir, rec); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the record commit changes\n%s\nwant exactly\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	msg := gittest.Git(t, dir, "log", "-1", "--format=%B", rec)
	for _, s := range []string{"sed -i 's/beta/gamma/' app.txt && mv …\n\nthe shell command that ran\n\nEdit-Op: record\n", "Edit-Session: default\n", "Edit-Prev: "} {
		if !strings.Contains(msg, s) {
			t.Errorf("the record commit's message lacks %q:\n%s", s, msg)
		}
	}
	// The summary line is git's own for the same commit.
	shortstat := gittest.Git(t, dir, "diff", "--shortstat", "--no-renames", tip, rec)
	for _, s := range []string{"[default " + rec[:7] + "] sed -i 's/beta/gamma/' app.txt && mv …\n", shortstat,
		" create mode 100755 move/dst.sh\n", " delete mode 100755 move/src.sh\n", " delete mode 100644 old.txt\n", " create mode 100644 new.txt\n"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("record's report lacks %q:\n%s", s, r.stdout)
		}
	}
	// The blobs are what `git add` records for the same bytes.
	for _, p := range []string{"app.txt", "move/dst.sh", "new.txt", "ro.txt"} {
		want := strings.TrimSpace(gittest.Git(t, dir, "hash-object", "--path="+p, p))
		if got := gittest.Rev(t, dir, "refs/edits/default:"+p); got != want {
			t.Errorf("%s recorded as %s, git hash-object says %s", p, got, want)
		}
	}
	if got := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Op,valueonly)", rec); strings.TrimSpace(got) != "record" {
		t.Errorf("Edit-Op is %q", got)
	}

	// Nothing new: nothing recorded, exit 0, ref unchanged.
	r = runCLI(t, "", append([]string{"record"}, root...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "nothing to record") {
		t.Errorf("second record: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if got := gittest.Rev(t, dir, "refs/edits/default"); got != rec {
		t.Errorf("a second record moved the ref to %s", got)
	}

	// log shows it as op record.
	r = runCLI(t, "", append([]string{"log", "-n", "1"}, root...)...)
	if r.code != 0 || !strings.Contains(r.stdout, rec[:7]+"  ") || !strings.Contains(r.stdout, " record ") {
		t.Errorf("log: %d %q %q", r.code, r.stdout, r.stderr)
	}

	// Undo treats it like an edit: every file back as it was on disk.
	sh(t, dir, "chmod u+w ro.txt") // undo writes files; a read-only one is refused
	r = runCLI(t, "", append([]string{"undo"}, root...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "Undid record ("+rec[:7]+")") {
		t.Fatalf("undo: %d %q %q", r.code, r.stdout, r.stderr)
	}
	wantAfterUndo := map[string]string{"app.txt": before["app.txt"], "old.txt": before["old.txt"], "move/src.sh": before["move/src.sh"],
		"keep.txt": "kept\n", "ro.txt": before["ro.txt"]}
	for p, want := range wantAfterUndo {
		if got := gittest.ReadFile(t, dir, p); got != want {
			t.Errorf("after undo %s holds %q, want %q", p, got, want)
		}
	}
	for _, p := range []string{"new.txt", "move/dst.sh"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); !os.IsNotExist(err) {
			t.Errorf("after undo %s still exists (%v)", p, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "move/src.sh")); err != nil || fi.Mode()&0o100 == 0 {
		t.Errorf("move/src.sh came back without its executable bit: %v %v", fi.Mode(), err)
	}
	if gittest.ReadFile(t, dir, "build.log") != "noise\n" || gittest.ReadFile(t, dir, "build/out.txt") != "out\n" {
		t.Error("ignored files were touched")
	}
	if strings.Contains(gittest.Git(t, dir, "show", "--name-only", "--format=", rec), "build") {
		t.Error("ignored files were recorded")
	}
	if gittest.Rev(t, dir, "HEAD") != headBefore || gittest.Git(t, dir, "ls-files", "-s", "--debug") != indexBefore {
		t.Error("record or undo changed HEAD or the index")
	}
	gittest.Fsck(t, dir)
}

// record PATH records only what is under PATH (a file or a directory,
// relative to where the command runs); the rest waits for the next record.
func TestRecordPaths(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a/one.txt": "1\n", "a/two.txt": "2\n", "b/three.txt": "3\n", "top.txt": "t\n"})
	sh(t, dir, "echo x >> a/one.txt && echo y > a/new.txt && echo z >> b/three.txt && echo w >> top.txt")
	root := []string{"--root", dir}
	r := runCLI(t, "", append([]string{"record", "a/", "top.txt"}, root...)...)
	if r.code != 0 {
		t.Fatalf("record a/ top.txt: %d %q %q", r.code, r.stdout, r.stderr)
	}
	want := []string{"A a/new.txt", "M a/one.txt", "M top.txt"}
	if got := nameStatus(t, dir, "refs/edits/default"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("record a/ top.txt recorded %v, want %v", got, want)
	}
	// From a subdirectory, --root narrows to it: only b's change is left.
	r = runCLI(t, "", "record", "--root", filepath.Join(dir, "b"))
	if r.code != 0 {
		t.Fatalf("record --root b: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if got := nameStatus(t, dir, "refs/edits/default"); strings.Join(got, "|") != "M b/three.txt" {
		t.Errorf("record --root b recorded %v", got)
	}
	r = runCLI(t, "", append([]string{"record"}, root...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "nothing to record") {
		t.Errorf("third record: %d %q %q", r.code, r.stdout, r.stderr)
	}
	// A path outside the root is refused, naming it, and changes nothing.
	tip := gittest.Rev(t, dir, "refs/edits/default")
	sh(t, dir, "echo v >> top.txt")
	r = runCLI(t, "", "record", "--root", filepath.Join(dir, "b"), "../top.txt")
	if r.code != 1 || !strings.Contains(r.stderr, "outside the root") {
		t.Errorf("record of a path outside the root: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if gittest.Rev(t, dir, "refs/edits/default") != tip {
		t.Error("a refused record moved the ref")
	}
	gittest.Fsck(t, dir)
}

// A symlink made by the shell is not a file git-edit records: record says
// so on stderr and records the rest.
func TestRecordSkipsSymlinks(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	sh(t, dir, "ln -s a.txt link && echo b >> a.txt")
	r := runCLI(t, "", "record", "--root", dir)
	if r.code != 0 || !strings.Contains(r.stderr, "warning: not recorded: link: ") {
		t.Fatalf("record: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if got := nameStatus(t, dir, "refs/edits/default"); strings.Join(got, "|") != "M a.txt" {
		t.Errorf("recorded %v", got)
	}
}

// A file git converts (eol=crlf) is compared as the session compares it:
// as checked out it is unchanged; changed, it is recorded as `git add`
// would record it.
func TestRecordConvertedFile(t *testing.T) {
	dir := gittest.New(t)
	gittest.WriteFile(t, dir, ".gitattributes", "*.txt text eol=crlf\n")
	gittest.WriteFile(t, dir, "c.txt", "one\ntwo\n")
	gittest.Git(t, dir, "add", ".")
	gittest.Git(t, dir, "commit", "-qm", "init")
	sh(t, dir, "rm c.txt && git checkout -- c.txt") // now CRLF on disk
	r := runCLI(t, "", "record", "--root", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "nothing to record") {
		t.Fatalf("record of a file as git checkout wrote it: %d %q %q", r.code, r.stdout, r.stderr)
	}
	sh(t, dir, "sed -i 's/two/three/' c.txt")
	if r = runCLI(t, "", "record", "--root", dir); r.code != 0 {
		t.Fatalf("record: %d %q %q", r.code, r.stdout, r.stderr)
	}
	gittest.Git(t, dir, "add", "c.txt")
	want := strings.Fields(gittest.Git(t, dir, "ls-files", "-s", "c.txt"))[1]
	if got := gittest.Rev(t, dir, "refs/edits/default:c.txt"); got != want {
		t.Errorf("c.txt recorded as %s, git add records %s", got, want)
	}
}

// The README's hook configurations are real: each block's PostToolUse hook
// on Bash, run as the host runs it (its command through the shell, the
// hook input on stdin, in the project directory), records the shell
// command's change as one record commit whose subject is the command; run
// again, it records nothing and succeeds. The generic snippet too.
func TestReadmeRecordHooks(t *testing.T) {
	bin := binDir(t)
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "<!-- hooks: TestReadmeRecordHooks runs the commands of each block below with PreToolUse and PostToolUse inputs on stdin -->"
	_, rest, ok := strings.Cut(string(raw), marker)
	if !ok {
		t.Fatal("README lacks the hooks marker")
	}
	var blocks []string
	for len(blocks) < 3 {
		_, after, ok := strings.Cut(rest, "```")
		if !ok {
			t.Fatalf("README has %d code blocks after the hooks marker, want 3", len(blocks))
		}
		body, after2, _ := strings.Cut(after, "```")
		blocks, rest = append(blocks, body), after2
	}
	type hookFile struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct{ Type, Command string }
		} `json:"hooks"`
	}
	var commands [][2]string // before and after the shell command
	for i, b := range blocks[:2] {
		lang, js, _ := strings.Cut(b, "\n")
		var hf hookFile
		if err := json.Unmarshal([]byte(js), &hf); lang != "json" || err != nil {
			t.Fatalf("block %d (%s) is not a JSON hook file: %v\n%s", i, lang, err, js)
		}
		var pair [2]string
		for j, event := range []string{"PreToolUse", "PostToolUse"} {
			groups := hf.Hooks[event]
			if len(groups) != 1 || groups[0].Matcher != "Bash" || len(groups[0].Hooks) != 1 || groups[0].Hooks[0].Type != "command" {
				t.Fatalf("block %d: want one %s command hook on Bash: %+v", i, event, hf)
			}
			pair[j] = groups[0].Hooks[0].Command
		}
		commands = append(commands, pair)
	}
	lang, snippet, _ := strings.Cut(blocks[2], "\n")
	if lang != "sh" {
		t.Fatalf("the third block is %q, want the sh snippet", lang)
	}
	lines := strings.Split(strings.TrimSpace(snippet), "\n")
	if len(lines) != 2 {
		t.Fatalf("the sh snippet has %d lines, want the one before and the one after the command", len(lines))
	}
	commands = append(commands, [2]string{lines[0], lines[1]})

	for i, pair := range commands {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			dir := gittest.NewWithCommit(t, map[string]string{"app.py": "print('hello')\n", "gone.txt": "x\n", "notes.txt": "n\n"})
			gittest.WriteFile(t, dir, "notes.txt", "n\nmine\n") // the person's, uncommitted
			// A subdirectory: Claude Code's shell may have moved there;
			// the hook still records the whole worktree.
			sub := filepath.Join(dir, "pkg")
			if err := os.Mkdir(sub, 0o777); err != nil {
				t.Fatal(err)
			}
			shell := "sed -i 's/hello/there/' app.py && rm gone.txt && echo 'x = 1' > pkg/new.py"
			hook := func(command string) (string, string) {
				event := map[string]any{
					"session_id": "abc123", "transcript_path": "/tmp/t.jsonl", "cwd": dir, "hook_event_name": "PostToolUse",
					"tool_name": "Bash", "tool_input": map[string]any{"command": shell, "description": "Edit files"},
					"tool_response": map[string]any{"stdout": "", "stderr": "", "interrupted": false},
				}
				if command == pair[0] {
					event["hook_event_name"] = "PreToolUse"
					delete(event, "tool_response")
				}
				input, _ := json.Marshal(event)
				cmd := exec.Command("sh", "-c", command)
				cmd.Dir = sub
				cmd.Env = append(gittest.Env(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
					"CLAUDE_PROJECT_DIR="+dir, "COMMAND="+shell, "GIT_EDIT_SESSION=")
				cmd.Stdin = strings.NewReader(string(input))
				var out, errOut strings.Builder
				cmd.Stdout, cmd.Stderr = &out, &errOut
				if err := cmd.Run(); err != nil {
					t.Fatalf("hook %q: %v\nstdout: %s\nstderr: %s", command, err, out.String(), errOut.String())
				}
				return out.String(), errOut.String()
			}
			hook(pair[0])
			sh(t, dir, shell)
			out, _ := hook(pair[1])
			refs := strings.Fields(gittest.Git(t, dir, "for-each-ref", "--format=%(refname)", "refs/edits/"))
			if len(refs) != 1 {
				t.Fatalf("hook made refs %v, want one session", refs)
			}
			if subject := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%s", refs[0])); subject != shell {
				t.Errorf("record subject %q, want the shell command %q (output %q)", subject, shell, out)
			}
			want := []string{"A pkg/new.py", "D gone.txt", "M app.py"}
			if got := nameStatus(t, dir, refs[0]); strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("the hook recorded %v, want %v", got, want)
			}
			before := gittest.Rev(t, dir, refs[0]+"~1")
			if got := nameStatus(t, dir, before); strings.Join(got, "|") != "M notes.txt" {
				t.Errorf("the hook before the command recorded %v, want the person's notes.txt", got)
			}
			if op := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Op,valueonly)", before); strings.TrimSpace(op) != "sync" {
				t.Errorf("the hook before the command recorded a %q commit, want sync", op)
			}
			tip := gittest.Rev(t, dir, refs[0])
			// As a hook (--hook-input) record reports on stderr, keeping
			// stdout for the host's JSON (TestRecordHookInputKeepsStdoutForTheHost).
			if out, errOut := hook(pair[1]); !strings.Contains(out+errOut, "nothing to record") || gittest.Rev(t, dir, refs[0]) != tip {
				t.Errorf("the hook run again: %q, ref %s (was %s)", out, gittest.Rev(t, dir, refs[0]), tip)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// --hook-input takes the message from the shapes hosts send.
func TestHookCommand(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{`{"tool_name":"Bash","tool_input":{"command":"sed -i s/a/b/ f"}}`, "sed -i s/a/b/ f", ""},
		{`{"tool_name":"shell","tool_input":{"command":["bash","-lc","rm -f x"]}}`, "rm -f x", ""},
		{`{"tool_input":{"command":["rm","-f","x"]}}`, "rm -f x", ""},
		{`{"tool_name":"Write","tool_input":{"file_path":"src/app.py","content":"x"}}`, "Write src/app.py", ""},
		{`{}`, "", ""},
		{`not json`, "", "is not a hook's JSON input"},
		{`{"tool_input":{"command":3}}`, "", "neither a string nor a list"},
	}
	for _, c := range cases {
		got, err := hookCommand(strings.NewReader(c.in))
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("hookCommand(%s) = %q, %v; want %q, error with %q", c.in, got, err, c.want, c.err)
		}
	}
}

// The README's record sample is what the commands print: each `$` line of
// its console block runs in the quick start's repository after one
// str_replace, and prints the lines shown (commit ids, ages and column
// padding aside).
func TestReadmeRecordSample(t *testing.T) {
	bin := binDir(t)
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(raw), "### Shell and tool edits: `record`")
	if !ok {
		t.Fatal("README lacks the record section")
	}
	_, rest, _ = strings.Cut(rest, "```console\n")
	block, _, _ := strings.Cut(rest, "```")
	dir := gittest.NewWithCommit(t, map[string]string{"app.py": "def greet():\n    print(\"hello\")\n", "notes.txt": "notes\n"})
	env := append(gittest.Env(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GIT_EDIT_SESSION=", "NO_COLOR=1")
	call := exec.Command("git", "edit", "call", "text_editor")
	call.Dir, call.Env = dir, env
	call.Stdin = strings.NewReader(`{"command":"str_replace","path":"app.py","old_str":"hello","new_str":"hello, world"}`)
	if out, err := call.CombinedOutput(); err != nil {
		t.Fatalf("call: %v\n%s", err, out)
	}
	ids := regexp.MustCompile(`\b[0-9a-f]{7}\b`)
	ages := regexp.MustCompile(`\d+ seconds? ago`)
	spaces := regexp.MustCompile(` {2,}`)
	norm := func(s string) string {
		return strings.TrimSpace(spaces.ReplaceAllString(ages.ReplaceAllString(ids.ReplaceAllString(s, "ID"), "AGO"), " "))
	}
	var command string
	var want []string
	check := func() {
		if command == "" {
			return
		}
		cmd := exec.Command("sh", "-c", command)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", command, err, out)
		}
		if got, w := norm(string(out)), norm(strings.Join(want, "\n")); got != w {
			t.Errorf("$ %s\nprints\n%s\nthe README shows\n%s", command, out, strings.Join(want, "\n"))
		}
	}
	for _, line := range strings.Split(strings.TrimRight(block, "\n"), "\n") {
		if c, ok := strings.CutPrefix(line, "$ "); ok {
			check()
			command, want = c, nil
			continue
		}
		want = append(want, line)
	}
	check()
}

// TestRecordBeforeKeepsThePersonsChanges: `record --before` (a PreToolUse
// hook) records the person's uncommitted changes as a sync commit, so the
// record after the shell command holds only what the command changed, and
// undo of it leaves the person's work alone.
func TestRecordBeforeKeepsThePersonsChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the built binary")
	}
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	gittest.WriteFile(t, dir, "a.txt", "a\nmine\n") // the person's, uncommitted
	r := gitEdit(t, dir, "", nil, "record", "--before", "--session", "s", "-m", "sed -i s/b/B/ b.txt")
	if r.code != 0 || !regexp.MustCompile(`^\[s [0-9a-f]{7}\] sync: a\.txt changed outside git-edit\n`).MatchString(r.stdout) {
		t.Fatalf("record --before: %+v", r)
	}
	if got := gittest.Git(t, dir, "log", "-1", "--format=%B", "refs/edits/s"); !strings.Contains(got, "\nbefore: sed -i s/b/B/ b.txt\n") || !strings.Contains(got, "Edit-Op: sync\n") {
		t.Errorf("the sync commit's message:\n%s", got)
	}
	sh(t, dir, "sed -i s/b/B/ b.txt")
	r = gitEdit(t, dir, "", nil, "record", "--session", "s", "-m", "sed -i s/b/B/ b.txt")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "[s ") {
		t.Fatalf("record: %+v", r)
	}
	if got := nameStatus(t, dir, "refs/edits/s"); strings.Join(got, "|") != "M b.txt" {
		t.Errorf("the record after the command recorded %v, want only b.txt", got)
	}
	if r := gitEdit(t, dir, "", nil, "record", "--before", "--session", "s"); r.code != 0 || !strings.HasPrefix(r.stdout, "nothing to record") {
		t.Errorf("a second record --before: %+v", r)
	}
	if r := gitEdit(t, dir, "", nil, "undo", "--session", "s"); r.code != 0 {
		t.Fatalf("undo: %+v", r)
	}
	if got := gittest.ReadFile(t, dir, "b.txt"); got != "b\n" {
		t.Errorf("after undo b.txt is %q, want the bytes before the command", got)
	}
	if got := gittest.ReadFile(t, dir, "a.txt"); got != "a\nmine\n" {
		t.Errorf("after undo a.txt is %q: the person's change was reverted", got)
	}
	gittest.Fsck(t, dir)
}

// A person commits a change to a file the session never touched; then a
// shell command changes the same file and record records it. The record
// commit holds only the command's change (the person's committed line is
// recorded first, as a sync commit, as an edit would record it), so undo
// of the record keeps the person's committed line.
func TestRecordAfterPersonCommitsKeepsTheirWork(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "1\n", "b.txt": "1\n2\n3\n4\n5\n"})
	root := []string{"--root", dir, "--session", "s"}
	if r := runCLI(t, `{"command":"str_replace","path":"a.txt","old_str":"1","new_str":"one"}`, append([]string{"call"}, append(root, "text_editor")...)...); r.code != 0 {
		t.Fatalf("call: %+v", r)
	}
	sh(t, dir, "sed -i s/^3$/PERSON/ b.txt && git commit -qam person")
	head, index := gittest.Rev(t, dir, "HEAD"), gittest.Git(t, dir, "ls-files", "-s", "--debug")
	sh(t, dir, "sed -i s/^5$/SHELL/ b.txt")
	r := runCLI(t, "", append([]string{"record", "-m", "sed b"}, root...)...)
	if r.code != 0 {
		t.Fatalf("record: %+v", r)
	}
	if got := gittest.Git(t, dir, "diff", "refs/edits/s~1", "refs/edits/s", "--", "b.txt"); strings.Contains(got, "+PERSON") || !strings.Contains(got, "+SHELL") {
		t.Errorf("the record commit's diff of b.txt holds more than the command's change:\n%s", got)
	}
	if got := gittest.Git(t, dir, "log", "-1", "--format=%B", "refs/edits/s~1"); !strings.Contains(got, "Edit-Op: sync\n") {
		t.Errorf("the commit before the record is not a sync commit of HEAD's version:\n%s", got)
	}
	if r := runCLI(t, "", append([]string{"undo"}, root...)...); r.code != 0 {
		t.Fatalf("undo: %+v", r)
	}
	if got := gittest.ReadFile(t, dir, "b.txt"); got != "1\n2\nPERSON\n4\n5\n" {
		t.Errorf("after undo of the record b.txt is %q, want the person's committed line kept and only the command's change taken back", got)
	}
	if gittest.Rev(t, dir, "HEAD") != head || gittest.Git(t, dir, "ls-files", "-s", "--debug") != index {
		t.Error("record or undo moved HEAD or wrote the index")
	}
	gittest.Fsck(t, dir)
}

// TestRecordKeepsAnotherSessionsEdit: a record in one session does not take
// another live session's edit for its own: the other session's version is
// recorded first as a sync commit, the record holds only the command's
// change, and undoing the record keeps the other agent's line.
func TestRecordKeepsAnotherSessionsEdit(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the built binary")
	}
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "1\n2\n3\n4\n5\n"})
	if r := gitEdit(t, dir, `{"command":"str_replace","path":"a.txt","old_str":"2\n","new_str":"TWO\n"}`, nil, "call", "--session", "s2", "text_editor"); r.code != 0 {
		t.Fatalf("s2's edit: %+v", r)
	}
	sh(t, dir, "sed -i s/5/FIVE/ a.txt")
	r := gitEdit(t, dir, "", nil, "record", "--session", "s1", "-m", "sed -i s/5/FIVE/ a.txt")
	if r.code != 0 || !regexp.MustCompile(`^\[s1 [0-9a-f]{7}\] sync: a\.txt as session s2 left it \(its edit, not this session's\)\n\[s1 [0-9a-f]{7}\] sed -i s/5/FIVE/ a\.txt\n`).MatchString(r.stdout) {
		t.Fatalf("record: %+v", r)
	}
	if diff := gittest.Git(t, dir, "diff", "refs/edits/s1~1", "refs/edits/s1"); !strings.Contains(diff, "+FIVE") || strings.Contains(diff, "TWO") && !strings.Contains(diff, " TWO") {
		t.Errorf("the record commit is not only the command's change:\n%s", diff)
	}
	if r := gitEdit(t, dir, "", nil, "undo", "--session", "s1"); r.code != 0 {
		t.Fatalf("undo: %+v", r)
	}
	if got := gittest.ReadFile(t, dir, "a.txt"); got != "1\nTWO\n3\n4\n5\n" {
		t.Errorf("after undo of the record a.txt is %q: s2's edit must stay", got)
	}
	gittest.Fsck(t, dir)
}

// TestRecordOfFileOnlyUnconverted: a touched file the person puts back on
// disk as its blob, unconverted (LF under core.autocrlf), differs from the
// session's checked-out form but not in what `git add` stores: record and
// record --before have nothing to record, and say so (they used to panic).
func TestRecordOfFileOnlyUnconverted(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the built binary")
	}
	dir := gittest.New(t)
	gittest.Git(t, dir, "config", "core.autocrlf", "true")
	gittest.WriteFile(t, dir, "a.txt", "x\r\n")
	gittest.Git(t, dir, "add", "a.txt")
	gittest.Git(t, dir, "commit", "-qm", "init")
	if r := gitEdit(t, dir, `{"command":"str_replace","path":"a.txt","old_str":"x","new_str":"y"}`, nil, "call", "text_editor"); r.code != 0 {
		t.Fatalf("edit: %+v", r)
	}
	gittest.WriteFile(t, dir, "a.txt", "y\n")
	tip := gittest.Rev(t, dir, "refs/edits/default")
	for _, args := range [][]string{{"record"}, {"record", "--before"}} {
		r := gitEdit(t, dir, "", nil, args...)
		if r.code != 0 || r.stdout != "nothing to record: every file is as session default last recorded it\n" || r.stderr != "" {
			t.Errorf("%v: %+v", args, r)
		}
		if got := gittest.Rev(t, dir, "refs/edits/default"); got != tip {
			t.Errorf("%v moved the ref to %s", args, got)
		}
	}
	gittest.Fsck(t, dir)
}

// TestUndoTurnForceOfTwoConflictingEdits: a turn whose two edits of one file
// both conflict is refused naming the oldest edit --force goes back
// before, and --force then puts the file back whole (it used to fail with
// an internal error: the path was planned twice).
func TestUndoTurnForceOfTwoConflictingEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the built binary")
	}
	const orig = "1\n2\n3\n4\n5\n6\n7\n8\n"
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": orig})
	for _, c := range [][2]string{{"1\n", "ONE\n"}, {"7\n", "SEVEN\n"}} {
		args := fmt.Sprintf(`{"command":"str_replace","path":"f.txt","old_str":%q,"new_str":%q}`, c[0], c[1])
		if r := gitEdit(t, dir, args, nil, "call", "--session", "s", "--turn", "1", "text_editor"); r.code != 0 {
			t.Fatalf("edit: %+v", r)
		}
	}
	first := gittest.Rev(t, dir, "refs/edits/s~1")
	gittest.WriteFile(t, dir, "f.txt", "one!\n2\n3\n4\n5\n6\nseven!\n8\n")
	r := gitEdit(t, dir, "", nil, "undo", "--session", "s", "--turn", "1")
	if r.code != 1 || !strings.Contains(r.stderr, "put f.txt back whole as it was before "+first[:7]) {
		t.Fatalf("undo --turn 1 of two conflicting edits: %+v", r)
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != "one!\n2\n3\n4\n5\n6\nseven!\n8\n" {
		t.Fatalf("the refused undo changed the file: %q", got)
	}
	if r := gitEdit(t, dir, "", nil, "undo", "--session", "s", "--turn", "1", "--force"); r.code != 0 {
		t.Fatalf("undo --turn 1 --force: %+v", r)
	}
	if got := gittest.ReadFile(t, dir, "f.txt"); got != orig {
		t.Errorf("after undo --turn 1 --force f.txt is %q, want %q", got, orig)
	}
	gittest.Fsck(t, dir)
}

// TestCheckpointLeavesNoLooseObject: a checkpoint's commit goes into a kept
// pack like every operation's objects (a concurrent gc --prune=now could
// remove a loose one before the ref names it), and a dry run creates no
// file.
func TestCheckpointLeavesNoLooseObject(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the built binary")
	}
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a\n"})
	gittest.Git(t, dir, "gc", "-q")
	if r := gitEdit(t, dir, "", nil, "checkpoint", "--session", "s", "--dry-run", "cp0"); r.code != 0 {
		t.Fatalf("checkpoint --dry-run: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "git-edit")); !os.IsNotExist(err) {
		t.Errorf("a dry-run checkpoint created .git/git-edit (%v)", err)
	}
	if r := gitEdit(t, dir, "", nil, "checkpoint", "--session", "s", "cp1"); r.code != 0 {
		t.Fatalf("checkpoint: %+v", r)
	}
	if got := gittest.Git(t, dir, "count-objects"); !strings.HasPrefix(got, "0 objects") {
		t.Errorf("after a checkpoint: %s", got)
	}
	gittest.Fsck(t, dir)
}
