package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a redis-server a test started.
type Server struct {
	t    testing.TB
	bin  string
	dir  string
	Port int
	cmd  *exec.Cmd
	done chan struct{}
}

// Start starts a redis-server on a free local port and stops it when the
// test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("redis-server is not installed (CI=true: install Debian's redis-server, as .ci/run does): %v", err)
		}
		t.Skipf("redis-server is not installed: apt-get install -y redis-server to run this test (%v)", err)
	}
	s := &Server{t: t, bin: bin, dir: t.TempDir()}
	s.start()
	t.Cleanup(s.Stop)
	return s
}

// Addr returns the server's address, host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.Port) }

// URL returns the server's URL, database 0.
func (s *Server) URL() string { return "redis://" + s.Addr() + "/0" }

// Client returns a client of the server, closed when the test ends.
func (s *Server) Client() *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.Addr()})
	s.t.Cleanup(func() { c.Close() })
	return c
}

// start starts the server on a free port (a new one if the one it had
// is taken) and waits until it answers.
func (s *Server) start() {
	s.t.Helper()
	for attempt := 0; ; attempt++ {
		if s.Port == 0 || attempt > 0 {
			s.Port = freePort(s.t)
		}
		err := s.launch()
		if err == nil {
			return
		}
		if attempt == 3 {
			s.t.Fatalf("redistest: %v", err)
		}
	}
}

// launch runs redis-server on s.Port and waits for its PONG.
func (s *Server) launch() error {
	cmd := exec.Command(s.bin, "--port", strconv.Itoa(s.Port), "--bind", "127.0.0.1",
		"--dir", s.dir, "--save", "", "--appendonly", "no", "--daemonize", "no",
		"--logfile", filepath.Join(s.dir, "redis.log"))
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", s.bin, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	c := redis.NewClient(&redis.Options{Addr: s.Addr(), MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			s.cmd, s.done = cmd, done
			return nil
		}
		select {
		case <-done:
			log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
			return fmt.Errorf("redis-server on port %d exited: %s", s.Port, log)
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-done
			return fmt.Errorf("redis-server on port %d did not answer PING in 10s: %v", s.Port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop stops the server (SIGTERM, then SIGKILL after 5s); it does nothing
// when the server is stopped.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd = nil
}

// Restart stops the server and starts it again on the same port, empty
// (it keeps nothing on disk).
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	if err := s.launch(); err != nil {
		s.t.Fatalf("redistest: restart: %v", err)
	}
}

// freePort returns a local TCP port nothing listens on.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("redistest: find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
