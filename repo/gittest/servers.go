package gittest

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Server is a git server on loopback serving the bare repositories under Dir.
type Server struct {
	Dir string // the directory holding bare repositories
	URL string // base URL; a repository NAME is at URL + "/" + NAME (e.g. git://127.0.0.1:PORT/team.git or http://127.0.0.1:PORT/git/team.git)
}

// NewBare makes an empty bare repository Dir/name (branch main, unborn;
// receive.denyNonFastForwards stays git's default; http.receivepack=true
// so that smart HTTP accepts pushes) and returns its URL.
func (s *Server) NewBare(t testing.TB, name string) string {
	t.Helper()
	p := s.Path(name)
	Git(t, s.Dir, "init", "-q", "--bare", "-b", "main", p)
	Git(t, p, "config", "http.receivepack", "true")
	return s.URL + "/" + name
}

// Path is the directory of the bare repository name.
func (s *Server) Path(name string) string {
	return filepath.Join(s.Dir, filepath.FromSlash(name))
}

// RejectRefs installs a pre-receive hook in the bare repository name that
// rejects the whole push (exit 1), printing message to stderr, when any ref
// it receives matches the shell glob pattern (as `case` matches: * matches
// / too), as a hosting server's push protection does. The hook reads all
// of its input before it answers.
func (s *Server) RejectRefs(t testing.TB, name, pattern, message string) {
	t.Helper()
	hook := "#!/bin/sh\n" +
		"pattern=" + shellQuote(pattern) + "\n" +
		"reject=\n" +
		"while read -r old new ref; do\n" +
		"\tcase $ref in $pattern) reject=$ref ;; esac\n" +
		"done\n" +
		"if test -n \"$reject\"; then\n" +
		"\tprintf '%s\\n' " + shellQuote(message) + " >&2\n" +
		"\texit 1\n" +
		"fi\n" +
		"exit 0\n"
	dir := filepath.Join(s.Path(name), "hooks")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pre-receive"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
}

// AtomicOff makes the server say it does not support atomic pushes
// (receive.advertiseAtomic=false in that bare repository).
func (s *Server) AtomicOff(t testing.TB, name string) {
	t.Helper()
	Git(t, s.Path(name), "config", "receive.advertiseAtomic", "false")
}

// Refs is `git for-each-ref --format='%(objectname) %(refname)'` of the
// bare repository: for comparing the server's refs before and after.
func (s *Server) Refs(t testing.TB, name string) string {
	t.Helper()
	return Git(t, s.Path(name), "for-each-ref", "--format=%(objectname) %(refname)")
}

// shellQuote quotes s for a POSIX shell as one word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// serverDir is a fresh symlink-free directory for a server's repositories.
func serverDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// execPath is `git --exec-path`, where git-daemon and git-http-backend are.
func execPath(t testing.TB) string {
	t.Helper()
	return strings.TrimSpace(Git(t, "", "--exec-path"))
}

// ServeDaemon starts `git daemon --reuseaddr --export-all
// --enable=receive-pack --base-path=Dir --listen=127.0.0.1 --port=PORT Dir`
// on a free port, waits until it accepts connections and stops it (with
// every process it started) when the test ends. The daemon's hooks run.
func ServeDaemon(t testing.TB) *Server {
	t.Helper()
	dir := serverDir(t)
	daemon := filepath.Join(execPath(t), "git-daemon")
	logs := t.TempDir() // made before the cleanup below, so removed after it
	var errs []string
	// The free port is found by listening on port 0 and closing; another
	// process can take it before the daemon binds it, so try a few times.
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		log, err := os.Create(filepath.Join(logs, "daemon"+strconv.Itoa(attempt)+".log"))
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(daemon, "--reuseaddr", "--export-all", "--enable=receive-pack",
			"--base-path="+dir, "--listen=127.0.0.1", "--port="+port, dir)
		cmd.Dir = dir
		cmd.Env = Env()
		// A file, not a pipe: Wait must not wait for the daemon's children
		// to close their copies of it.
		cmd.Stdout, cmd.Stderr = log, log
		newGroup(cmd)
		if err := cmd.Start(); err != nil {
			log.Close()
			t.Fatalf("%s: %v", daemon, err)
		}
		log.Close() // the daemon has its own copy
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		addr := net.JoinHostPort("127.0.0.1", port)
		err = waitListening(addr, exited, 10*time.Second)
		if err == nil {
			t.Cleanup(func() {
				killGroup(cmd)
				<-exited
			})
			return &Server{Dir: dir, URL: "git://" + addr}
		}
		select {
		case <-exited:
		default: // still running but not listening: give up on it
			killGroup(cmd)
			<-exited
		}
		out, _ := os.ReadFile(log.Name())
		errs = append(errs, fmt.Sprintf("port %s: %v\n%s", port, err, out))
	}
	t.Fatalf("git daemon did not start:\n%s", strings.Join(errs, "\n"))
	return nil
}

// freePort is a loopback TCP port that was free a moment ago.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	_, port, err := net.SplitHostPort(l.Addr().String())
	l.Close()
	return port, err
}

// waitListening polls addr until it accepts a connection, the process
// reports on exited that it ended (the report is put back), or the
// deadline passes.
func waitListening(addr string, exited chan error, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not listening after %v: %v", timeout, err)
		}
		select {
		case werr := <-exited:
			exited <- werr
			return fmt.Errorf("exited: %v", werr)
		case <-tick.C:
		}
	}
}

// ServeHTTP serves git's smart HTTP: `git http-backend` behind Go's
// net/http/cgi (GIT_PROJECT_ROOT=Dir, GIT_HTTP_EXPORT_ALL=1, REMOTE_USER
// set so that pushes are allowed) under /git/ of an httptest.Server, which
// is closed when the test ends. Request bodies git sends chunked (pushes
// larger than http.postBuffer) are read whole first, since CGI needs
// their length.
func ServeHTTP(t testing.TB) *Server {
	t.Helper()
	dir := serverDir(t)
	env := []string{"GIT_PROJECT_ROOT=" + dir, "GIT_HTTP_EXPORT_ALL=1", "REMOTE_USER=person"}
	for _, e := range Env() {
		if !cgiVariable(e) {
			env = append(env, e)
		}
	}
	backend := &cgi.Handler{
		Path:   filepath.Join(execPath(t), "git-http-backend"),
		Root:   "/git",
		Dir:    dir,
		Env:    env,
		Stderr: testLog{t},
	}
	mux := http.NewServeMux()
	mux.Handle("/git/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength < 0 || len(r.TransferEncoding) > 0 {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			r.TransferEncoding = nil
		}
		backend.ServeHTTP(w, r)
	}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &Server{Dir: dir, URL: srv.URL + "/git"}
}

// cgiVariable tells whether the environment entry e is one the CGI
// handler sets for each request (or git's own repository choice), which
// the test process's environment must not override.
func cgiVariable(e string) bool {
	k, _, _ := strings.Cut(e, "=")
	switch k {
	case "GIT_PROJECT_ROOT", "GIT_HTTP_EXPORT_ALL", "REMOTE_USER", "GIT_DIR", "GIT_WORK_TREE",
		"SERVER_SOFTWARE", "SERVER_PROTOCOL", "SERVER_NAME", "SERVER_PORT", "GATEWAY_INTERFACE",
		"REQUEST_METHOD", "QUERY_STRING", "REQUEST_URI", "PATH_INFO", "PATH_TRANSLATED",
		"SCRIPT_NAME", "SCRIPT_FILENAME", "REMOTE_ADDR", "REMOTE_HOST", "REMOTE_PORT",
		"CONTENT_LENGTH", "CONTENT_TYPE", "HTTPS", "PATH":
		return true
	}
	return strings.HasPrefix(k, "HTTP_")
}

// testLog writes what git http-backend prints on standard error to the
// test's log.
type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("git http-backend: %s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}
