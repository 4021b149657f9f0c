package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo/gittest"
)

// gitEdit runs the built binary in dir with env added to git's test
// environment (GIT_EDIT_SESSION unset unless env sets it).
// edit replaces old with new in path through text_editor in session s.
func edit(t *testing.T, dir, s, path, old, new string) {
	t.Helper()
	mustRun(t, dir, fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":%q}`, path, old, new), "call", "--session", s, "text_editor")
}

// Item 3 of issue 15: a session that does not exist is named as missing,
// with those that do; without --session the history commands work on the
// session last written in this worktree and say which (issue 23: the one
// rule); show finds a commit in any session.
func TestSessionsFoundAsAPersonMeansThem(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a1\n", "b.txt": "b1\n"})
	gittest.Git(t, dir, "config", "edit.requireRead", "false")

	r := gitEdit(t, dir, "", nil, "log")
	if want := "git-edit: no such session: no session in this repository has a commit; sessions are made by `git edit call` and `git edit mcp`, which record each edit on refs/edits/<session>\n"; r.code != 1 || r.stdout != "" || r.stderr != want {
		t.Fatalf("log without sessions: exit %d\nstdout %q\nstderr %q\nwant   %q", r.code, r.stdout, r.stderr, want)
	}

	edit(t, dir, "agent3", "a.txt", "a1", "A1")
	r = gitEdit(t, dir, "", nil, "log")
	if r.code != 0 || r.stderr != "session agent3, the last written in this worktree; --session NAME to choose another\n" || normalizeCLI(r.stdout) != "<id>  <age>  edit  text_editor.str_replace  +1 -1  a.txt\n" {
		t.Fatalf("log of the only session: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	// Commit times have whole seconds: the next session is newer by one.
	time.Sleep(1100 * time.Millisecond)
	edit(t, dir, "agent2", "b.txt", "b1", "B1")
	agent3 := gittest.Rev(t, dir, "refs/edits/agent3")

	for _, tc := range []struct {
		name   string
		env    []string
		args   []string
		stdout string
		stderr string
	}{
		{"the most recent", nil, []string{"log"}, "<id>  <age>  edit  text_editor.str_replace  +1 -1  b.txt\n",
			"session agent2, the last written in this worktree; --session NAME to choose another\n"},
		{"diff of the most recent", nil, []string{"diff", "--name-only"}, "b.txt\n",
			"session agent2, the last written in this worktree; --session NAME to choose another\n"},
		{"GIT_EDIT_SESSION wins", []string{"GIT_EDIT_SESSION=agent3"}, []string{"log"}, "<id>  <age>  edit  text_editor.str_replace  +1 -1  a.txt\n", ""},
		{"--session wins over GIT_EDIT_SESSION", []string{"GIT_EDIT_SESSION=agent2"}, []string{"diff", "--session", "agent3", "--name-only"}, "a.txt\n", ""},
		{"show finds a commit of another session", nil, []string{"show", "--session", "agent2", "--name-only", agent3[:8]},
			"commit <id>\nSession: agent3\nDate:   DATE\n\n    text_editor.str_replace: a.txt\n    \n    Edit-Op: edit\n    Edit-Tool: text_editor.str_replace\n    Edit-Session: agent3\n    Edit-Path: a.txt\n    Edit-Stat: 1 1 a.txt\n    Edit-Seq: 0 1\n\na.txt\n", ""},
		{"show without --session", nil, []string{"show", "--stat", agent3}, "-", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := gitEdit(t, dir, "", tc.env, tc.args...)
			if r.code != 0 || (tc.stdout != "-" && normalizeCLI(r.stdout) != tc.stdout) || r.stderr != tc.stderr {
				t.Fatalf("exit %d\nstdout %q\nwant   %q\nstderr %q\nwant   %q", r.code, normalizeCLI(r.stdout), tc.stdout, r.stderr, tc.stderr)
			}
		})
	}

	missing := "git-edit: no such session: no session \"nosuch\" in this repository; the sessions are: agent2 (last <age>), agent3 (last <age>). Choose one with --session NAME\n"
	refs := gittest.Git(t, dir, "for-each-ref")
	status := gittest.Status(t, dir)
	for _, args := range [][]string{
		{"log", "--session", "nosuch"},
		{"log", "--session=nosuch", "a.txt"},
		{"diff", "--session", "nosuch"},
		{"show", "--session", "nosuch", "tip"},
		{"undo", "--session", "nosuch"},
		{"redo", "--session", "nosuch"},
		{"rollback", "--session", "nosuch"},
	} {
		r := gitEdit(t, dir, "", nil, args...)
		if r.code != 1 || r.stdout != "" || normalizeCLI(r.stderr) != missing {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q\nwant   %q", args, r.code, r.stdout, normalizeCLI(r.stderr), missing)
		}
	}
	r = gitEdit(t, dir, "", []string{"GIT_EDIT_SESSION=nosuch"}, "log")
	if r.code != 1 || normalizeCLI(r.stderr) != missing {
		t.Errorf("GIT_EDIT_SESSION=nosuch: exit %d, stderr %q", r.code, r.stderr)
	}
	r = gitEdit(t, dir, "", nil, "show", "zzzz")
	if want := "git-edit: no such edit \"zzzz\" in any session (agent2, agent3); give a commit id from `git edit log --all`\n"; r.code != 1 || r.stderr != want {
		t.Errorf("show zzzz: exit %d\nstderr %q\nwant   %q", r.code, r.stderr, want)
	}
	if gittest.Git(t, dir, "for-each-ref") != refs || gittest.Status(t, dir) != status {
		t.Fatal("a refused command changed a ref or a file")
	}
	// Without --session, undo works on the session last written here and says so.
	r = gitEdit(t, dir, "", nil, "undo")
	if r.code != 0 || r.stderr != "session agent2, the last written in this worktree; --session NAME to choose another\n" || gittest.ReadFile(t, dir, "b.txt") != "b1\n" || gittest.ReadFile(t, dir, "a.txt") != "A1\n" {
		t.Fatalf("undo: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	gittest.Fsck(t, dir)
}

// Item 5 of issue 15: log's columns line up, sync rows included (they have
// no tool); counts are singular or plural as they should be.
func TestLogColumnsAndPlurals(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"a.txt": "a1\na2\n", "long/path/b.txt": "b1\n", "c.txt": "c1\n"})
	gittest.Git(t, dir, "config", "edit.requireRead", "false")
	edit(t, dir, "s", "a.txt", "a1", "A1")
	gittest.WriteFile(t, dir, "a.txt", "A1\na2\nperson\n")
	edit(t, dir, "s", "a.txt", "a2", "A2\nA3")
	edit(t, dir, "s", "long/path/b.txt", "b1", "B1")
	r := gitEdit(t, dir, "", nil, "log", "--session", "s")
	want := "" +
		"<id>  <age>  edit  text_editor.str_replace  +1 -1  long/path/b.txt\n" +
		"<id>  <age>  edit  text_editor.str_replace  +2 -1  a.txt\n" +
		"<id>  <age>  sync                           +1 -0  a.txt\n" +
		"<id>  <age>  edit  text_editor.str_replace  +1 -1  a.txt\n"
	if r.code != 0 || normalizeLog(r.stdout) != want {
		t.Fatalf("log: exit %d\n%s\nwant\n%s%s", r.code, normalizeCLI(r.stdout), want, r.stderr)
	}
	r = gitEdit(t, dir, "", nil, "sessions")
	if want := "s  4 commits (3 edits)  2 paths  base <id>  last <age>\n"; normalizeCLI(r.stdout) != want {
		t.Fatalf("sessions:\n%s\nwant\n%s", normalizeCLI(r.stdout), want)
	}
	edit(t, dir, "one", "c.txt", "c1", "C1")
	r = gitEdit(t, dir, "", nil, "sessions")
	if want := "one  1 commit (1 edit)  1 path  base <id>  last <age>\ns    4 commits (3 edits)  2 paths  base <id>  last <age>\n"; normalizeCLI(r.stdout) != want {
		t.Fatalf("sessions:\n%s\nwant\n%s", normalizeCLI(r.stdout), want)
	}
	r = gitEdit(t, dir, "", nil, "log", "--all", "--stat")
	want = "" +
		"<id>  [one]  <age>  edit  text_editor.str_replace  +1 -1  c.txt\n" +
		" c.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n" +
		"<id>  [s]    <age>  edit  text_editor.str_replace  +1 -1  long/path/b.txt\n" +
		" long/path/b.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n" +
		"<id>  [s]    <age>  edit  text_editor.str_replace  +2 -1  a.txt\n" +
		" a.txt | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n" +
		"<id>  [s]    <age>  sync                           +1 -0  a.txt\n" +
		" a.txt | 1 +\n 1 file changed, 1 insertion(+)\n" +
		"<id>  [s]    <age>  edit  text_editor.str_replace  +1 -1  a.txt\n" +
		" a.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"
	if r.code != 0 || normalizeLog(r.stdout) != want {
		t.Fatalf("log --all --stat: exit %d\n%s\nwant\n%s%s", r.code, normalizeCLI(r.stdout), want, r.stderr)
	}
	r = gitEdit(t, dir, "", nil, "log", "--session", "s", "-n", "2", "--name-only")
	want = "<id>  <age>  edit  text_editor.str_replace  +1 -1  long/path/b.txt\nlong/path/b.txt\n" +
		"<id>  <age>  edit  text_editor.str_replace  +2 -1  a.txt\na.txt\n"
	if r.code != 0 || normalizeLog(r.stdout) != want {
		t.Fatalf("log --name-only: exit %d\n%s\nwant\n%s%s", r.code, normalizeCLI(r.stdout), want, r.stderr)
	}
}

// normalizeLog is normalizeCLI for log's columns: an age and its padding,
// which depend on the clock, become "<age>  ".
func normalizeLog(s string) string {
	return normalizeCLI(regexp.MustCompile(`\b\d+ (second|minute)s? ago +`).ReplaceAllString(s, "<age>  "))
}

// sessionOfFiles makes session s change files from before to after (one
// create or write per file), and returns the repository and the commit
// the session started from.
func sessionOfFiles(t *testing.T, before, after map[string]string) (dir, base string) {
	t.Helper()
	dir = gittest.NewWithCommit(t, before)
	gittest.Git(t, dir, "config", "edit.requireRead", "false")
	// No function names in git's hunk headers: diffview writes none.
	os.WriteFile(filepath.Join(dir, ".git", "info", "attributes"), []byte("* diff=nofunc\n"), 0o644)
	gittest.Git(t, dir, "config", "diff.nofunc.xfuncname", "^NEVER MATCHES$")
	for path, content := range after {
		mustRun(t, dir, fmt.Sprintf(`{"command":"write","path":%q,"file_text":%q}`, path, content), "call", "--session", "s", "text_editor")
	}
	return dir, gittest.Rev(t, dir, "HEAD")
}

// gitDiffLines is git's diff output without the lines git-edit does not
// write (diff --git, index, file modes), as git-edit's diff has only the
// ---/+++ headers.
func gitDiffLines(out string) string {
	drop := regexp.MustCompile(`^(\x1b\[1m)?(diff --git |index |new file mode |deleted file mode )`)
	var keep []string
	for _, line := range strings.SplitAfter(out, "\n") {
		if !drop.MatchString(line) {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "")
}

// numberHunks is git's diff output with each hunk header labelled as
// `git edit diff` labels it, " hunk N" per file after the closing "@@",
// coloured as git colours text there (its function context): plain, then
// a reset.
func numberHunks(diff string) string {
	header := regexp.MustCompile(`^((?:\x1b\[36m)?@@ -[0-9,]+ \+[0-9,]+ @@(\x1b\[m)?)(.*)$`)
	var b strings.Builder
	n := 0
	for _, line := range strings.SplitAfter(diff, "\n") {
		body, nl := strings.CutSuffix(line, "\n")
		if strings.Contains(body, "+++ ") && !strings.Contains(body, "@@") {
			n = 0
		}
		m := header.FindStringSubmatch(body)
		if m == nil {
			b.WriteString(line)
			continue
		}
		n++
		label := fmt.Sprintf(" hunk %d", n)
		if m[2] != "" {
			label += "\x1b[m"
		}
		b.WriteString(m[1] + label + m[3])
		if nl {
			b.WriteString("\n")
		}
	}
	return b.String()
}

var reviewBefore = map[string]string{
	"code.c":   "int main() {\n\ta();\n\tb();\n\tc();\n\td();\n\te();\n\n\tf();\n}\n",
	"crlf.txt": "one\r\ntwo\r\nthree\r\n",
	"noeol.md": "# title\nlast line",
	"gone.txt": "x\n",
}

var reviewAfter = map[string]string{
	"code.c":       "int main() {\n\ta();\n\tb();\n\tC();  \n  \tindented();\n    spaces();\n\td();\n\te();\n\n\tf();\n}\n",
	"crlf.txt":     "one\r\nTWO\r\nthree\r\n",
	"noeol.md":     "# title\nlast line, longer",
	"new/file.txt": "fresh\n\nfile\n",
}

// show and diff colour as git colours the same diff, with git's default
// colours and whitespace errors, under --color=always, color.diff and
// color.ui; never on a pipe otherwise.
func TestDiffColouredAsGit(t *testing.T) {
	dir, base := sessionOfFiles(t, reviewBefore, reviewAfter)
	gitColoured := numberHunks(gitDiffLines(gittest.Git(t, dir, "diff", "--color=always", base, "refs/edits/s")))
	plain := numberHunks(gitDiffLines(gittest.Git(t, dir, "diff", "--color=never", base, "refs/edits/s")))
	if !strings.Contains(gitColoured, "\x1b[41m") || !strings.Contains(gitColoured, "\x1b[31m") {
		t.Fatalf("the fixture does not exercise git's colours:\n%q", gitColoured)
	}
	for _, tc := range []struct {
		name   string
		config []string
		args   []string
		want   string
	}{
		{"--color=always", nil, []string{"--color=always"}, gitColoured},
		{"a pipe", nil, nil, plain},
		{"color.ui=always", []string{"color.ui", "always"}, nil, gitColoured},
		{"color.diff wins over color.ui", []string{"color.ui", "always", "color.diff", "false"}, nil, plain},
		{"--color=never wins over color.diff", []string{"color.diff", "always"}, []string{"--color=never"}, plain},
		{"--no-color", []string{"color.diff", "always"}, []string{"--no-color"}, plain},
		{"auto on a pipe", []string{"color.diff", "auto"}, []string{"--color=auto"}, plain},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gittest.GitErr(dir, "config", "--remove-section", "color")
			for i := 0; i < len(tc.config); i += 2 {
				gittest.Git(t, dir, "config", tc.config[i], tc.config[i+1])
			}
			// diff lists paths in order; git sorts them the same way here.
			r := gitEdit(t, dir, "", nil, append([]string{"diff", "--session", "s"}, tc.args...)...)
			if r.code != 0 || r.stdout != tc.want {
				t.Fatalf("exit %d %s\ngit-edit: %q\ngit:      %q", r.code, r.stderr, r.stdout, tc.want)
			}
		})
	}
	gittest.GitErr(dir, "config", "--remove-section", "color")
	// show colours its diff the same way: the commit of one file.
	commit := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%H", "--grep=code.c", "refs/edits/s"))
	r := gitEdit(t, dir, "", nil, "show", "--color=always", commit)
	wantDiff := gitDiffLines(gittest.Git(t, dir, "show", "--color=always", "--format=", commit))
	if r.code != 0 || !strings.HasPrefix(r.stdout, "\x1b[33mcommit "+commit+"\x1b[m\n") || !strings.HasSuffix(r.stdout, "\n\n"+wantDiff) {
		t.Fatalf("show --color=always:\n%q\nwant it to end with\n%q", r.stdout, wantDiff)
	}
	r = gitEdit(t, dir, "", nil, "diff", "--color=sometimes")
	if r.code != 2 || r.stderr != "git-edit: --color=sometimes: say always, never or auto\n" {
		t.Fatalf("--color=sometimes: exit %d %q", r.code, r.stderr)
	}
}

// --stat is git diff --stat's, line for line, in any width; --name-only
// git's list; the graph coloured as git colours it.
func TestStatAndNameOnlyAsGit(t *testing.T) {
	after := map[string]string{"a-rather-long-directory-name/with/a/long/file-name.txt": strings.Repeat("line\n", 120)}
	for k, v := range reviewAfter {
		after[k] = v
	}
	dir, base := sessionOfFiles(t, reviewBefore, after)
	for _, columns := range []string{"80", "40", "200", "10"} {
		for _, colour := range []string{"never", "always"} {
			cmd := exec.Command("git", "diff", "--stat", "--color="+colour, base, "refs/edits/s")
			cmd.Dir, cmd.Env = dir, append(gittest.Env(), "COLUMNS="+columns)
			want, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			r := gitEdit(t, dir, "", []string{"COLUMNS=" + columns}, "diff", "--session", "s", "--stat", "--color="+colour)
			if r.code != 0 || r.stdout != string(want) {
				t.Errorf("COLUMNS=%s --color=%s: exit %d %s\ngit-edit:\n%s\ngit:\n%s", columns, colour, r.code, r.stderr, r.stdout, want)
			}
		}
	}
	want := gittest.Git(t, dir, "diff", "--name-only", base, "refs/edits/s")
	if r := gitEdit(t, dir, "", nil, "diff", "--session", "s", "--name-only"); r.code != 0 || r.stdout != want {
		t.Errorf("--name-only:\n%s\ngit:\n%s", r.stdout, want)
	}
	commit := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%H", "--grep=code.c", "refs/edits/s"))
	r := gitEdit(t, dir, "", nil, "show", "--stat", commit)
	seq := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Seq,valueonly)", commit))
	if want := "\n" + gittest.Git(t, dir, "show", "--stat", "--format=", commit); r.code != 0 || !strings.HasSuffix(r.stdout, "Edit-Path: code.c\n    Edit-Stat: 3 1 code.c\n    Edit-Seq: "+seq+"\n"+want) {
		t.Errorf("show --stat:\n%s\nwant it to end with\n%s", r.stdout, want)
	}
	if r := gitEdit(t, dir, "", nil, "diff", "--stat", "--name-only"); r.code != 2 || r.stderr != "git-edit: --stat and --name-only cannot be used together; choose one\n" {
		t.Errorf("--stat --name-only: exit %d %q", r.code, r.stderr)
	}
}

// On a terminal, log, show and diff go through the pager git would use
// (GIT_PAGER, core.pager, PAGER), with LESS=FRX as git sets it, coloured;
// --no-pager (-P) and a pager of "cat" write to the terminal itself.
func TestPagerOnATerminal(t *testing.T) {
	dir, _ := sessionOfFiles(t, map[string]string{"a.txt": "a\n"}, map[string]string{"a.txt": "b\n"})
	scratch := t.TempDir()
	script := func(name string) string {
		p := filepath.Join(scratch, name)
		body := "#!/bin/sh\n{ echo \"" + name + " LESS=$LESS LV=$LV\"; cat; } > " + filepath.Join(scratch, name+".out") + "\n"
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gitP, coreP, envP := script("git-pager"), script("core-pager"), script("pager")
	coloured := "\x1b[1m--- a/a.txt\x1b[m\n\x1b[1m+++ b/a.txt\x1b[m\n\x1b[36m@@ -1 +1 @@\x1b[m hunk 1\x1b[m\n\x1b[31m-a\x1b[m\n\x1b[32m+\x1b[m\x1b[32mb\x1b[m\n"
	for _, tc := range []struct {
		name   string
		config string // core.pager
		env    []string
		args   []string
		pager  string // the script that must have run, "" for none
		want   string // what it read, or what the terminal showed
	}{
		{"GIT_PAGER", coreP, []string{"GIT_PAGER=" + gitP, "PAGER=" + envP}, []string{"diff"}, "git-pager", "git-pager LESS=FRX LV=-c\n" + coloured},
		{"core.pager", coreP, []string{"PAGER=" + envP}, []string{"diff"}, "core-pager", "core-pager LESS=FRX LV=-c\n" + coloured},
		{"PAGER", "", []string{"PAGER=" + envP, "LESS=R"}, []string{"diff"}, "pager", "pager LESS=R LV=-c\n" + coloured},
		{"--no-pager", coreP, nil, []string{"diff", "--no-pager"}, "", coloured},
		{"-P", coreP, nil, []string{"diff", "-P"}, "", coloured},
		{"cat", "cat", nil, []string{"diff", "--color=never"}, "", "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@ hunk 1\n-a\n+b\n"},
		{"log", "", []string{"GIT_PAGER=" + gitP}, []string{"log", "--color=never"}, "git-pager", "-"},
		{"show", "", []string{"GIT_PAGER=" + gitP}, []string{"show", "--stat", "--color=never", "tip"}, "git-pager", "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, n := range []string{"git-pager", "core-pager", "pager"} {
				os.Remove(filepath.Join(scratch, n+".out"))
			}
			gittest.GitErr(dir, "config", "--unset-all", "core.pager")
			if tc.config != "" {
				gittest.Git(t, dir, "config", "core.pager", tc.config)
			}
			term, reader := openPTY(t)
			cmd := exec.Command(filepath.Join(binDir(t), "git-edit"), append([]string{tc.args[0], "--session", "s"}, tc.args[1:]...)...)
			cmd.Dir = dir
			cmd.Env = append(append(gittest.Env(), "GIT_EDIT_SESSION=", "NO_COLOR=", "COLUMNS=", "TERM=xterm"), tc.env...)
			if !strings.Contains(strings.Join(tc.env, " "), "PAGER=") {
				cmd.Env = append(cmd.Env, "PAGER=", "GIT_PAGER=")
			}
			if !strings.Contains(strings.Join(tc.env, " "), "LESS=") {
				cmd.Env = slicesWithout(cmd.Env, "LESS=", "LV=")
			}
			var errOut bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = term, term, &errOut
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v: %s", err, errOut.String())
			}
			term.Close()
			var shown bytes.Buffer
			buf := make([]byte, 4096)
			for {
				n, err := reader.Read(buf)
				shown.Write(buf[:n])
				if err != nil {
					break
				}
			}
			// The terminal turns "\n" into "\r\n".
			onTerminal := strings.ReplaceAll(shown.String(), "\r\n", "\n")
			if tc.pager == "" {
				if onTerminal != tc.want {
					t.Fatalf("the terminal showed %q, want %q", onTerminal, tc.want)
				}
				return
			}
			read, err := os.ReadFile(filepath.Join(scratch, tc.pager+".out"))
			if err != nil {
				t.Fatalf("the pager %s did not run: %v; terminal: %q", tc.pager, err, onTerminal)
			}
			if onTerminal != "" || (tc.want != "-" && string(read) != tc.want) {
				t.Fatalf("the pager read %q, want %q; terminal: %q", read, tc.want, onTerminal)
			}
		})
	}
}

// slicesWithout is env without the variables whose "NAME=" prefixes are
// given.
func slicesWithout(env []string, prefixes ...string) []string {
	var out []string
	for _, kv := range env {
		drop := false
		for _, p := range prefixes {
			drop = drop || strings.HasPrefix(kv, p)
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// The README's console sample of show, diff, log --json and prune, after
// one str_replace in the quick start's repository, is what the commands
// print (ids, dates and ages aside).
func TestReadmeConsoleSample(t *testing.T) {
	bin := binDir(t)
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sample, ok := strings.Cut(string(raw), "Output of the other commands")
	_, sample, ok2 := strings.Cut(sample, "```console\n")
	sample, _, ok3 := strings.Cut(sample, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README.md has no console sample after \"Output of the other commands\"")
	}
	dir := gittest.NewWithCommit(t, map[string]string{"app.py": "def greet():\n    print(\"hello\")\n"})
	mustRun(t, dir, `{"command":"str_replace","path":"app.py","old_str":"hello","new_str":"hello, world"}`, "call", "text_editor")
	rfc3339 := regexp.MustCompile(`"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)"`)
	norm := func(s string) string { return rfc3339.ReplaceAllString(normalizeCLI(s), `"<time>"`) }
	steps := strings.Split(sample, "$ ")[1:]
	if len(steps) < 5 {
		t.Fatalf("the sample has %d commands", len(steps))
	}
	for _, step := range steps {
		command, want, _ := strings.Cut(step, "\n")
		cmd := exec.Command("bash", "-c", command)
		cmd.Dir = dir
		cmd.Env = append(gittest.Env(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GIT_EDIT_SESSION=", "COLUMNS=")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", command, err)
		}
		if norm(string(out)) != norm(want) {
			t.Errorf("%s printed\n%s\nthe README shows\n%s", command, out, want)
		}
	}
}
