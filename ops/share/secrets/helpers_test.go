package secrets

import (
	"encoding/base64"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/repo/gittest"
)

// awsKey returns an AWS-style access key id made at run time, so that this
// file holds no literal key. seed varies it.
func awsKey(seed int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	var b strings.Builder
	b.WriteString("AK" + "IA")
	for i := range 16 {
		b.WriteByte(alphabet[(i*7+3+seed)%len(alphabet)])
	}
	return b.String()
}

// githubToken returns a GitHub personal access token made at run time.
func githubToken() string {
	const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	var b strings.Builder
	b.WriteString("gh" + "p_")
	for i := range 36 {
		b.WriteByte(alphabet[(i*11+5)%len(alphabet)])
	}
	return b.String()
}

// privateKey returns the lines of a PEM private key made at run time.
func privateKey() []string {
	raw := make([]byte, 144)
	for i := range raw {
		raw[i] = byte(i*37 + 11)
	}
	body := base64.StdEncoding.EncodeToString(raw)
	lines := []string{"-----BEGIN " + "RSA PRIVATE KEY-----"}
	for len(body) > 64 {
		lines = append(lines, body[:64])
		body = body[64:]
	}
	return append(lines, body, "-----END "+"RSA PRIVATE KEY-----")
}

var hunkHeader = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@`)

// commitBlobs returns the blobs that commit adds in the repository at dir,
// as push would make them: content from `git cat-file`, Added from the hunk
// headers of `git diff-tree -p -U0` (nil for a file the commit creates).
func commitBlobs(t *testing.T, dir, session, commit string) []Blob {
	t.Helper()
	out := gittest.Git(t, dir, "diff-tree", "-p", "-U0", "-r", "--no-renames", "--root", "--no-commit-id", commit)
	var blobs []Blob
	var cur *Blob
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			blobs = append(blobs, Blob{Session: session, Commit: commit, Added: []LineRange{}})
			cur = &blobs[len(blobs)-1]
		case strings.HasPrefix(line, "new file mode"):
			cur.Added = nil
		case strings.HasPrefix(line, "@@ "):
			m := hunkHeader.FindStringSubmatch(line)
			first, _ := strconv.Atoi(m[1])
			n := 1
			if m[2] != "" {
				n, _ = strconv.Atoi(m[2])
			}
			if n > 0 && cur.Added != nil {
				cur.Added = append(cur.Added, LineRange{first, first + n - 1})
			}
		}
	}
	// Paths from the tree (binary files have no "+++" line); same order.
	names := strings.Split(strings.TrimSpace(gittest.Git(t, dir, "diff-tree", "-r", "--no-renames", "--root", "--no-commit-id", "--name-only", commit)), "\n")
	if len(names) != len(blobs) {
		t.Fatalf("diff-tree: %d files, %d blobs", len(names), len(blobs))
	}
	for i := range blobs {
		blobs[i].Path = names[i]
		blobs[i].Content = []byte(gittest.Git(t, dir, "cat-file", "blob", commit+":"+names[i]))
	}
	return blobs
}

// commitFiles commits files in the repository at dir with message and
// returns the new commit's id.
func commitFiles(t *testing.T, dir string, files map[string]string, message string) string {
	t.Helper()
	for rel, content := range files {
		gittest.WriteFile(t, dir, rel, content)
	}
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", message)
	return gittest.Rev(t, dir, "HEAD")
}
