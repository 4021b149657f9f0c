package lang

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/go-enry/go-enry/v2"
	"github.com/go-enry/go-enry/v2/data"

	"github.com/git-edit/git-edit/ops/texteditor/internal/langgen"
)

// TestTablesUpToDate: the checked-in tables are what langgen generates from
// the go-enry version in go.mod, so they cannot go stale.
func TestTablesUpToDate(t *testing.T) {
	want, err := langgen.Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("tables.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("tables.go is not what langgen generates now; run go generate ./ops/texteditor/internal/lang")
	}
}

type outcome int

const (
	same        outcome = iota // compared, and go-enry agrees
	byPrior                    // chosen by prior where go-enry weighs tokens, and go-enry agrees
	byPriorDiff                // chosen by prior where go-enry weighs tokens, and go-enry differs (allowed)
	tie                        // a tie of priors that go-enry breaks by a map's order
)

// agree checks Detect against go-enry for one input. A difference is
// allowed only where the package doc says: a choice by prior that go-enry
// would make from the content's tokens, or a tie of priors that go-enry
// breaks at random.
func agree(t *testing.T, name string, content []byte) outcome {
	t.Helper()
	l, ok, prior := Detect(name, content)
	want := enry.GetLanguage(name, content)
	got := ""
	if ok {
		got = languages[l].name
	}
	switch {
	case prior && len(content) == 0 && got == want:
		return same // with no tokens go-enry's classifier ranks by the same prior
	case prior && got == want:
		return byPrior
	case prior && len(content) > 0:
		return byPriorDiff
	case got == want:
		return same
	}
	if got != "" && want != "" && languages[l].prior > 0 && languages[l].prior == languages[mustLang(want)].prior {
		return tie
	}
	t.Errorf("Detect(%q, %.40q) = %q, go-enry says %q", name, content, got, want)
	return same
}

// TestAgreesWithEnry: every extension, file name and interpreter go-enry
// knows gives go-enry's language, without content and with some.
func TestAgreesWithEnry(t *testing.T) {
	var n [4]int
	check := func(name string, content []byte) {
		t.Helper()
		n[agree(t, name, content)]++
	}
	for ext := range data.LanguagesByExtension {
		check("file"+ext, nil)
		check("FILE"+ext, nil)
		check("file"+ext, []byte("x\n"))
	}
	for name := range data.LanguagesByFilename {
		check(name, nil)
		check("dir/"+name, []byte("x\n"))
	}
	for interp := range data.LanguagesByInterpreter {
		check("script", []byte("#!/usr/bin/env "+interp+"\n"))
		check("script", []byte("#!/usr/local/bin/"+interp+" -x\necho\n"))
		check("script", []byte("#!/usr/bin/env -S FOO=1 "+interp+"\n"))
	}
	for alias := range data.LanguageByAliasMap {
		check("f", []byte("# -*- mode: "+alias+" -*-\n"))
		check("f", []byte("x\n# vim: set ft="+alias+":\n"))
	}
	t.Logf("%d answers the same as go-enry's; chosen by prior where go-enry weighs tokens: %d the same, %d different; %d ties of priors left to go-enry's map order", n[same], n[byPrior], n[byPriorDiff], n[tie])
}

// TestAgreesWithEnryOnFiles: real files under each of the heuristics'
// extensions and under their own names give go-enry's answer wherever
// Detect does not fall back on the prior (counted, not compared).
func TestAgreesWithEnryOnFiles(t *testing.T) {
	var files [][]byte
	var names []string
	roots := []string{"../../../.."} // this module
	if !testing.Short() {
		roots = append(roots, filepath.Join(runtime.GOROOT(), "src", "net"), filepath.Join(runtime.GOROOT(), "misc"))
	}
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() && d.Name() == ".git" {
				return fs.SkipDir
			}
			if d.IsDir() {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) == 0 {
				return nil
			}
			files = append(files, b[:min(len(b), 16*1024)])
			names = append(names, d.Name())
			return nil
		})
	}
	var exts []string
	for _, h := range heuristics {
		exts = append(exts, h.ext)
	}
	var n, own [4]int
	for i, b := range files {
		own[agree(t, names[i], b)]++
		// Each file under a few of the ambiguous extensions, turn by turn,
		// exercises the heuristics' rules on real text.
		for j := range 3 {
			ext := exts[(i*3+j)%len(exts)]
			n[agree(t, "f"+ext, b)]++
		}
	}
	t.Logf("%d files under their own names: %d answers the same as go-enry's; chosen by prior where go-enry weighs tokens: %d the same, %d different; %d ties", len(files), own[same], own[byPrior], own[byPriorDiff], own[tie])
	t.Logf("the same files under ambiguous extensions: %d answers the same as go-enry's; chosen by prior where go-enry weighs tokens: %d the same, %d different; %d ties", n[same], n[byPrior], n[byPriorDiff], n[tie])
	if own[same]+n[same] < 1000 {
		t.Fatalf("only %d answers compared", own[same]+n[same])
	}
}

func TestDetectCases(t *testing.T) {
	tests := []struct{ name, content, want string }{
		{"main.go", "package main\n", "Go"},
		{"x.h", "@interface Foo : NSObject\n@end\n", "Objective-C"},
		{"x.h", "#include <iostream>\nclass A {};\nnamespace b {}\n", "C++"},
		{"x.ts", "<?xml version=\"1.0\"?>\n<TS version=\"2.1\">\n", "XML"},
		{"x.ts", "let a: number = 1;\n", "TypeScript"},
		{"x.pl", "use strict;\nmy $x = 1;\n", "Perl"},
		{"x.pl", ":- module(a, []).\n", "Prolog"},
		{"x.m", "#import <Foundation/Foundation.h>\n@implementation A\n@end\n", "Objective-C"},
		{"run", "#!/bin/sh\nexec python \"$0\" \"$@\"\n", "Python"},
		{"run", "#!/usr/bin/python3.11\n", "Python"},
		{"f.txt", "x\n# vim: set ft=ruby:\n", "Ruby"},
		{"f", "# -*- mode: python -*-\n", "Python"},
		{"f", "-*- nonsense -*-\n# vim: ft=perl\n", "Perl"},
		{"f", "a\x00b", ""},
		{"page.1", ".TH FOO 1\n.SH NAME\n", "Roff Manpage"},
		{"x.unknownext", "hello\n", ""},
		{"data", "<?xml version=\"1.0\"?>\n<a/>\n", "XML"},
	}
	for _, tt := range tests {
		if got := Name(tt.name, []byte(tt.content)); got != tt.want {
			t.Errorf("Name(%q, %q) = %q, want %q", tt.name, tt.content, got, tt.want)
		}
		if want := enry.GetLanguage(tt.name, []byte(tt.content)); want != tt.want {
			t.Errorf("go-enry says %q for %q, the test wants %q", want, tt.name, tt.want)
		}
	}
}

func TestTablesSorted(t *testing.T) {
	for name, tbl := range map[string][]entry{"byExtension": byExtension[:], "byFilename": byFilename[:], "byInterpreter": byInterpreter[:]} {
		if !slices.IsSortedFunc(tbl, func(a, b entry) int { return strings.Compare(a.key, b.key) }) {
			t.Errorf("%s is not sorted", name)
		}
	}
	if !slices.IsSortedFunc(byAlias[:], func(a, b alias) int { return strings.Compare(a.key, b.key) }) {
		t.Error("byAlias is not sorted")
	}
	if !slices.IsSortedFunc(languages[:], func(a, b language) int { return strings.Compare(a.name, b.name) }) {
		t.Error("languages is not sorted")
	}
	if !slices.IsSortedFunc(heuristics[:], func(a, b heuristic) int { return strings.Compare(a.ext, b.ext) }) {
		t.Error("heuristics is not sorted")
	}
}
