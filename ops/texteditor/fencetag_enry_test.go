package texteditor

import (
	"path/filepath"
	"testing"

	"github.com/go-enry/go-enry/v2"
	"github.com/go-enry/go-enry/v2/data"

	"github.com/git-edit/git-edit/ops/text"
	"github.com/git-edit/git-edit/ops/texteditor/internal/lang"
	"github.com/git-edit/git-edit/ops/texteditor/internal/langgen"
)

// enryFenceTag is FenceTag as it was when it called go-enry at run time.
func enryFenceTag(path string, content []byte) string {
	head := content[text.BOMLen(content):]
	if len(head) > LanguageHeadBytes {
		head = head[:LanguageHeadBytes]
	}
	return langgen.Tag(enry.GetLanguage(filepath.Base(path), head))
}

// TestFenceTagAgreesWithEnry: for every extension, file name and
// interpreter go-enry knows, FenceTag gives the tag it gave when it called
// go-enry, except where package lang documents a choice by prior (counted;
// lang's tests check those against go-enry for empty content).
func TestFenceTagAgreesWithEnry(t *testing.T) {
	compared, prior := 0, 0
	check := func(path, content string) {
		t.Helper()
		head := []byte(content)
		if _, _, byPrior := lang.Detect(filepath.Base(path), head); byPrior {
			prior++
			return
		}
		compared++
		if got, want := FenceTag(path, head), enryFenceTag(path, head); got != want {
			t.Errorf("FenceTag(%q, %q) = %q, with go-enry it was %q", path, content, got, want)
		}
	}
	for ext := range data.LanguagesByExtension {
		check("dir/file"+ext, "")
		check("File"+ext, text.BOM+"x\n")
	}
	for name := range data.LanguagesByFilename {
		check("a/b/"+name, "")
	}
	for interp := range data.LanguagesByInterpreter {
		check("bin/script", "#!/usr/bin/env "+interp+"\necho\n")
	}
	t.Logf("%d tags compared, %d chosen by prior (not compared)", compared, prior)
}
