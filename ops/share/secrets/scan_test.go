package secrets

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/git-edit/git-edit/repo/gittest"
)

// lines joins lines with a newline after each.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// TestScanAddedLine: a key that a commit adds is found at its exact path,
// line and rule, with its fingerprint; the same key on a line the commit
// does not add is not.
func TestScanAddedLine(t *testing.T) {
	tests := []struct {
		name, secret, rule string
	}{
		{"aws", `aws_access_key_id = "` + awsKey(0) + `"`, "aws-access-token"},
		{"github", `token := "` + githubToken() + `"`, "github-pat"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.New(t)
			created := commitFiles(t, dir, map[string]string{
				"conf/app.go": lines("package conf", "", tc.secret, "", "var x = 1"),
			}, "add conf")
			got, err := Scan(context.Background(), commitBlobs(t, dir, "s1", created), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := []Finding{{
				Session: "s1", Commit: created, Path: "conf/app.go", Line: 3, Rule: tc.rule,
				Fingerprint: created + ":conf/app.go:" + tc.rule + ":3",
			}}
			if d := diffFindings(got, want); d != "" {
				t.Fatal(d)
			}

			// A later commit that adds only line 5 sends the same key again
			// but does not add it: no finding.
			later := commitFiles(t, dir, map[string]string{
				"conf/app.go": lines("package conf", "", tc.secret, "", "var x = 2"),
			}, "change x")
			blobs := commitBlobs(t, dir, "s1", later)
			if len(blobs) != 1 || !slices.Equal(blobs[0].Added, []LineRange{{5, 5}}) {
				t.Fatalf("blobs of the later commit: %+v", blobs)
			}
			got, err = Scan(context.Background(), blobs, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 0 {
				t.Fatalf("key on a line not added: %+v", got)
			}
		})
	}
}

// TestScanSplitOverEdits: a secret whose first part one edit writes and
// whose rest a later edit writes is found in the later edit's blob, though
// the later edit's added lines alone hold no whole secret.
func TestScanSplitOverEdits(t *testing.T) {
	key := awsKey(1)
	pem := privateKey()
	tests := []struct {
		name         string
		first, whole string
		line         int
		rule         string
		added        []LineRange // what the second edit adds
	}{
		{
			name:  "one line finished by the second edit",
			first: lines("package a", "", `const k = "`+key[:10]),
			whole: lines("package a", "", `const k = "`+key+`"`),
			line:  3, rule: "aws-access-token", added: []LineRange{{3, 3}},
		},
		{
			name:  "private key whose END line comes in the second edit",
			first: lines(append([]string{"# key"}, pem[:len(pem)-1]...)...),
			whole: lines(append([]string{"# key"}, pem...)...),
			line:  2, rule: "private-key", added: []LineRange{{len(pem) + 1, len(pem) + 1}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.New(t)
			commitFiles(t, dir, map[string]string{"k.txt": tc.first}, "first edit")
			first := commitBlobs(t, dir, "s", gittest.Rev(t, dir, "HEAD"))
			if got, err := Scan(context.Background(), first, nil); err != nil || len(got) != 0 {
				t.Fatalf("first edit alone: %+v, %v", got, err)
			}
			second := commitFiles(t, dir, map[string]string{"k.txt": tc.whole}, "second edit")
			blobs := commitBlobs(t, dir, "s", second)
			if len(blobs) != 1 || !slices.Equal(blobs[0].Added, tc.added) {
				t.Fatalf("blobs of the second edit: %+v", blobs)
			}
			got, err := Scan(context.Background(), blobs, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := []Finding{{Session: "s", Commit: second, Path: "k.txt", Line: tc.line, Rule: tc.rule,
				Fingerprint: second + ":k.txt:" + tc.rule + ":" + strconv.Itoa(tc.line)}}
			if d := diffFindings(got, want); d != "" {
				t.Fatal(d)
			}
		})
	}
}

// TestScanUTF16: UTF-16 text is decoded, and a key in it found at its
// line; content with NULs that is not UTF-16 is skipped as binary.
func TestScanUTF16(t *testing.T) {
	key := awsKey(2)
	text := lines("[default]", "region = eu-west-1", "aws_access_key_id = "+key, "end = yes")
	utf16le := func(bom bool, s string) string {
		var b []byte
		if bom {
			b = append(b, 0xFF, 0xFE)
		}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return string(b)
	}
	utf16be := func(s string) string {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u>>8), byte(u))
		}
		return string(b)
	}
	tests := []struct {
		name, content string
		line          int // 0: no finding
	}{
		{"utf-8", text, 3},
		{"utf-16le with BOM", utf16le(true, text), 3},
		{"utf-16le without BOM", utf16le(false, text), 3},
		{"utf-16be without BOM", utf16be(text), 3},
		{"binary with NULs, odd length", withParity("\x00\x01\x02\x03ELF\x00\x00"+text, 1), 0},
		{"binary with NULs, even length", withParity("\x00\x01\x02\x03ELF\x00\x00"+text, 0), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.New(t)
			commit := commitFiles(t, dir, map[string]string{"cred.ini": tc.content}, "add creds")
			blobs := commitBlobs(t, dir, "s", commit)
			if string(blobs[0].Content) != tc.content || blobs[0].Added != nil {
				t.Fatalf("blob: %+v", blobs[0])
			}
			got, err := Scan(context.Background(), blobs, nil)
			if err != nil {
				t.Fatal(err)
			}
			var want []Finding
			if tc.line != 0 {
				want = []Finding{{Session: "s", Commit: commit, Path: "cred.ini", Line: tc.line, Rule: "aws-access-token",
					Fingerprint: commit + ":cred.ini:aws-access-token:" + strconv.Itoa(tc.line)}}
			}
			if d := diffFindings(got, want); d != "" {
				t.Fatal(d)
			}
		})
	}
}

// withParity returns s, a NUL byte added when needed to make its length's
// parity p.
func withParity(s string, p int) string {
	if len(s)%2 != p {
		s += "\x00"
	}
	return s
}

// TestScanPathRule: a file that is a secret by its name alone (PKCS#12)
// is found though its content is binary, when created and when changed
// (a binary change has no hunks, so no added lines).
func TestScanPathRule(t *testing.T) {
	dir := gittest.New(t)
	created := commitFiles(t, dir, map[string]string{"certs/client.p12": "0\x82\x00\x01\x02binary"}, "add cert")
	changed := commitFiles(t, dir, map[string]string{"certs/client.p12": "0\x82\x00\x01\x03binary"}, "change cert")
	for _, commit := range []string{created, changed} {
		blobs := commitBlobs(t, dir, "s", commit)
		got, err := Scan(context.Background(), blobs, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := []Finding{{Session: "s", Commit: commit, Path: "certs/client.p12", Line: 1, Rule: "pkcs12-file",
			Fingerprint: commit + ":certs/client.p12:pkcs12-file:1"}}
		if d := diffFindings(got, want); d != "" {
			t.Fatalf("blobs %+v:\n%s", blobs, d)
		}
	}
}

// TestScanMessage: a key in a commit message is found with Path "" at its
// line in the message.
func TestScanMessage(t *testing.T) {
	dir := gittest.New(t)
	msg := lines("edit: run shell", "", "$ curl -H 'Authorization: token "+githubToken()+"' https://example.com/api")
	commit := commitFiles(t, dir, nil, msg)
	text := gittest.Git(t, dir, "log", "-1", "--format=%B", commit)
	got, err := Scan(context.Background(), nil, []Message{{Session: "s", Commit: commit, Text: text}})
	if err != nil {
		t.Fatal(err)
	}
	// Two rules see the line; they come in rule order.
	want := []Finding{
		{Session: "s", Commit: commit, Path: "", Line: 3, Rule: "curl-auth-header", Fingerprint: commit + "::curl-auth-header:3"},
		{Session: "s", Commit: commit, Path: "", Line: 3, Rule: "github-pat", Fingerprint: commit + "::github-pat:3"},
	}
	if d := diffFindings(got, want); d != "" {
		t.Fatal(d)
	}
}

// TestScanOrdinaryCode: Go source without secrets (this package's own and
// gittest's, a few hundred lines) gives no finding.
func TestScanOrdinaryCode(t *testing.T) {
	var files []string
	for _, pattern := range []string{"*.go", "../../../repo/gittest/*.go"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	var blobs []Blob
	total := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += strings.Count(string(b), "\n")
		blobs = append(blobs, Blob{Session: "s", Commit: "c", Path: filepath.ToSlash(f), Content: b})
	}
	if total < 300 {
		t.Fatalf("only %d lines of Go source", total)
	}
	got, err := Scan(context.Background(), blobs, []Message{{Session: "s", Commit: "c", Text: "secrets: scan blobs before push\n\nUses gitleaks' default rules.\n"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("findings in ordinary code: %+v", got)
	}
}

// TestScanOrder: findings come sorted by session, commit, path, line, rule,
// and an empty Added means nothing in the blob counts.
func TestScanOrder(t *testing.T) {
	k, g := awsKey(3), githubToken()
	content := []byte(lines("a = "+g, "b = "+k))
	blobs := []Blob{
		{Session: "s2", Commit: "c1", Path: "z", Content: content},
		{Session: "s1", Commit: "c2", Path: "b", Content: content, Added: []LineRange{{2, 2}}},
		{Session: "s1", Commit: "c2", Path: "a", Content: content, Added: []LineRange{{1, 1}, {2, 9}}},
		{Session: "s1", Commit: "c1", Path: "a", Content: content, Added: []LineRange{}},
	}
	msgs := []Message{{Session: "s1", Commit: "c2", Text: "b = " + k}}
	got, err := Scan(context.Background(), blobs, msgs)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range got {
		keys = append(keys, f.Session+" "+f.Fingerprint)
	}
	want := []string{
		"s1 c2::aws-access-token:1",
		"s1 c2:a:github-pat:1",
		"s1 c2:a:aws-access-token:2",
		"s1 c2:b:aws-access-token:2",
		"s2 c1:z:github-pat:1",
		"s2 c1:z:aws-access-token:2",
	}
	if !slices.Equal(keys, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(keys, "\n"), strings.Join(want, "\n"))
	}
}

// TestScanCancelled: a cancelled context ends Scan with its error.
func TestScanCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := Scan(ctx, []Blob{{Path: "a", Content: []byte("x = " + awsKey(0) + "\n")}}, nil)
	if !errors.Is(err, context.Canceled) || got != nil {
		t.Fatalf("Scan with a cancelled context: %+v, %v", got, err)
	}
}

// diffFindings compares findings, Description aside (it is the rule's, and
// only checked to be set); it returns "" when they agree.
func diffFindings(got, want []Finding) string {
	var b strings.Builder
	if len(got) != len(want) {
		b.WriteString("different number of findings\n")
	}
	for i := range max(len(got), len(want)) {
		var g, w Finding
		if i < len(got) {
			g = got[i]
			if g.Description == "" {
				b.WriteString("finding without description\n")
			}
			g.Description = ""
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			b.WriteString("got  " + fmtFinding(g) + "\nwant " + fmtFinding(w) + "\n")
		}
	}
	return b.String()
}

func fmtFinding(f Finding) string {
	return strings.Join([]string{f.Session, f.Commit, f.Path, strconv.Itoa(f.Line), f.Rule, f.Fingerprint}, " | ")
}

// TestScanConcurrent: Scans running at once share the one detector; run
// with -race this checks that they may.
func TestScanConcurrent(t *testing.T) {
	blobs := []Blob{{Session: "s", Commit: "c", Path: "a", Content: []byte(lines("x", "k = "+awsKey(4), "t = "+githubToken()))}}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			got, err := Scan(context.Background(), blobs, nil)
			if err == nil && len(got) != 2 {
				err = errors.New("want 2 findings, got " + strconv.Itoa(len(got)))
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
