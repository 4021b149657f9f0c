// Package secrets checks what `git edit push` would send for secrets before
// it leaves the machine: the blobs and commit messages that the pushed
// sessions add (Scan), and which paths the worktree's ignore rules exclude
// (Ignored). Detection uses gitleaks' default rules.
package secrets
