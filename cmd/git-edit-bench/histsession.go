package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/git-edit/git-edit/ops/texteditor"
	"github.com/git-edit/git-edit/repo/packidx/packtest"
)

// histFile is the content of a file a built session edits, after c edits:
// 2 KB of text whose counter line reads c.
func histFile(c int) []byte {
	return bytes.Replace(textFile(2<<10), []byte(counterLine(0)), []byte(counterLine(c)), 1)
}

// buildSession writes a session of n edits on refs/edits/<name> in the
// repository dir in seconds, where n calls of git-edit would take minutes:
// edit i advances the counter line of paths[i % len(paths)] by one, as
// `git-edit call text_editor str_replace` does. Every path must be in
// HEAD and on disk as histFile(0); at the end each is on disk as the
// session's tip holds it, so the next edit finds nothing to sync.
//
// The commits are exactly what git-edit writes, because git-edit writes
// their models: bin makes two real edits of paths[0] on a scratch session
// (the first touch of a path, and a later one), and each built commit
// copies the matching message, identity and form, with the path, the
// session name and the Edit-Prev commit replaced. Whatever trailers
// git-edit writes (now or in a later version) come along, and they are
// right, since every built edit is the same one-line change of a file of
// the same size. `git fast-import` writes the commits into one pack and
// reports each one's id (get-mark), which the next Edit-Prev names.
func buildSession(dir, bin, name string, n int, paths []string) error {
	scratch := name + "-model"
	models := make([]string, 2)
	var ident string
	for c := range 2 {
		args := fmt.Sprintf(`{"command":"str_replace","path":%q,"old_str":%q,"new_str":%q}`, paths[0], counterLine(c), counterLine(c+1))
		cmd := exec.Command(bin, "call", "--session", scratch, texteditor.ToolName)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, packtest.Env(), strings.NewReader(args)
		out, err := cmd.Output()
		var res struct{ Status, Commit string }
		if err != nil || json.Unmarshal(out, &res) != nil || res.Status != "success" {
			return fmt.Errorf("model edit of %s: %v %s", paths[0], err, out)
		}
		raw, err := packtest.Git(dir, nil, "cat-file", "commit", res.Commit)
		if err != nil {
			return err
		}
		header, msg, _ := strings.Cut(raw, "\n\n")
		for line := range strings.Lines(header) {
			if rest, ok := strings.CutPrefix(line, "committer "); ok {
				// "Name <email> 1700000000 +0000": keep the identity.
				f := strings.Fields(rest)
				ident = strings.Join(f[:len(f)-2], " ")
			}
		}
		models[c] = msg
	}
	first, err := packtest.Git(dir, nil, "rev-parse", "refs/edits/"+scratch+"~1")
	if err != nil {
		return err
	}
	first = strings.TrimSpace(first)
	if !strings.Contains(models[1], first) {
		return fmt.Errorf("git-edit's second edit of %s does not name the first (%s) in its message:\n%s", paths[0], first, models[1])
	}
	// git-edit's own prune removes the scratch session whole: its ref and
	// its state (read records, history index), so no trace of it is left.
	prune := exec.Command(bin, "prune", "--session", scratch)
	prune.Dir, prune.Env = dir, packtest.Env()
	if out, err := prune.CombinedOutput(); err != nil {
		return fmt.Errorf("prune the scratch session %s: %v %s", scratch, err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, paths[0]), histFile(0), 0o644); err != nil {
		return err
	}
	head, err := packtest.Git(dir, nil, "rev-parse", "HEAD")
	if err != nil {
		return err
	}

	cmd := exec.Command("git", "fast-import", "--quiet", "--cat-blob-fd=3")
	cmd.Dir, cmd.Env = dir, packtest.Env()
	marks, marksW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer marks.Close()
	cmd.ExtraFiles = []*os.File{marksW}
	in, err := cmd.StdinPipe()
	if err != nil {
		marksW.Close()
		return err
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	err = cmd.Start()
	marksW.Close()
	if err != nil {
		return err
	}
	werr := writeSession(in, bufio.NewReader(marks), sessionSpec{
		name: name, scratch: scratch, ident: ident, head: strings.TrimSpace(head),
		n: n, paths: paths, models: models, firstModel: first,
	})
	in.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %w: %s", err, strings.TrimSpace(errb.String()))
	}
	if werr != nil {
		return werr
	}
	for k, p := range paths {
		edits := n / len(paths)
		if k < n%len(paths) {
			edits++
		}
		if err := os.WriteFile(filepath.Join(dir, p), histFile(edits), 0o644); err != nil {
			return err
		}
	}
	return nil
}

type sessionSpec struct {
	name, scratch, ident, head string
	n                          int
	paths                      []string
	models                     []string // messages of a first and a later edit of paths[0]
	firstModel                 string   // the commit of models[0], named in models[1]
}

// seqTrailer is the Edit-Seq trailer of a model message, which each built
// commit carries with its own position and count, as Apply writes it.
var seqTrailer = regexp.MustCompile(`(?m)^Edit-Seq: \d+ \d+\n`)

// writeSession streams the session's commits to fast-import and reads
// back each one's id from marks.
func writeSession(w io.Writer, marks *bufio.Reader, s sessionSpec) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	last := map[string]string{} // path: the commit of its latest edit
	when := int64(1_800_000_000)
	for i := range s.n {
		p := s.paths[i%len(s.paths)]
		c := i / len(s.paths)
		msg := s.models[0]
		if c > 0 {
			msg = strings.ReplaceAll(s.models[1], s.firstModel, last[p])
		}
		msg = strings.ReplaceAll(msg, "Edit-Session: "+s.scratch+"\n", "Edit-Session: "+s.name+"\n")
		msg = strings.ReplaceAll(msg, s.paths[0], p)
		// Every commit is an edit: the i-th (from 0) is the (i+1)-th edit.
		msg = seqTrailer.ReplaceAllString(msg, fmt.Sprintf("Edit-Seq: %d %d\n", i, i+1))
		fmt.Fprintf(bw, "commit refs/edits/%s\nmark :%d\nauthor %s %d +0000\ncommitter %s %d +0000\ndata %d\n%s\n",
			s.name, i+1, s.ident, when, s.ident, when, len(msg), msg)
		if i == 0 {
			fmt.Fprintf(bw, "from %s\n", s.head)
		}
		content := histFile(c + 1)
		fmt.Fprintf(bw, "M 100644 inline %s\ndata %d\n%s\n\nget-mark :%d\n", p, len(content), content, i+1)
		if err := bw.Flush(); err != nil {
			return err
		}
		id, err := marks.ReadString('\n')
		if err != nil {
			return fmt.Errorf("fast-import get-mark :%d: %w", i+1, err)
		}
		last[p] = strings.TrimSpace(id)
		when++
	}
	return nil
}
