// Package secrets checks what `git edit push` would send for secrets before
// it leaves the machine: the blobs and commit messages that the pushed
// sessions add (Scan), and which paths the worktree's ignore rules exclude
// (Ignored). Detection uses gitleaks' default rules, in the companion
// program git-edit-secrets (package scanner is the scan it runs), so that
// gitleaks is not part of the git-edit binary every command starts.
package secrets
