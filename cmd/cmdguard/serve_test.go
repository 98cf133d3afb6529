package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeNeedsTokenOffLoopback: any address but loopback needs a token.
func TestServeNeedsTokenOffLoopback(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		var stderr bytes.Buffer
		cmd := osexec.Command(cmdguardBin(t), "serve", "--listen", addr, "--cwd", t.TempDir())
		cmd.Env = append(os.Environ(), tokenEnv+"=")
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *osexec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitError || !strings.Contains(stderr.String(), "no token, no start") {
			t.Errorf("serve --listen %s without a token: %v\n%s", addr, err, stderr.String())
		}
	}
	for _, tc := range []struct {
		addr string
		want bool
	}{{"127.0.0.1:8080", true}, {"localhost:1", true}, {"[::1]:8080", true}, {"127.1.2.3:80", true},
		{"0.0.0.0:8080", false}, {":8080", false}, {"10.0.0.1:80", false}, {"example.com:80", false}, {"garbage", false}} {
		if got := loopback(tc.addr); got != tc.want {
			t.Errorf("loopback(%q) = %v, want %v", tc.addr, got, tc.want)
		}
	}
}

// TestServeSignal starts `cmdguard serve` with a token: requests without
// it are 401, a command runs, and SIGTERM ends the command's process group
// and the server with exit 0; the log is one JSON object per line.
func TestServeSignal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".cmdguard.yaml"), []byte("version: 1\nallow: [echo, sleep]\n"), 0o644)
	tokFile := filepath.Join(dir, "token")
	os.WriteFile(tokFile, []byte("t0ken-t0ken-t0ken\n"), 0o600)
	cmd := osexec.Command(cmdguardBin(t), "serve", "--listen", "127.0.0.1:0", "--cwd", dir, "--token-file", tokFile, "--ask", "allow")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var addr string
	var all []string
	timeout := time.After(promptDeadline)
	for addr == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("serve ended before listening:\n%s", strings.Join(all, "\n"))
			}
			all = append(all, l)
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == "listening" {
				addr, _ = m["addr"].(string)
			}
		case <-timeout:
			t.Fatal("serve never said where it listens")
		}
	}
	if !strings.Contains(strings.Join(all, "\n"), "WARNING: --ask allow") {
		t.Errorf("--ask allow without a loud warning:\n%s", strings.Join(all, "\n"))
	}
	post := func(auth, body string) (int, map[string]any) {
		req, _ := http.NewRequest("POST", "http://"+addr+"/v1/bash/exec", strings.NewReader(body))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var m map[string]any
		json.Unmarshal(b, &m)
		return resp.StatusCode, m
	}
	if code, _ := post("", `{"command": "echo hi"}`); code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", code)
	}
	code, m := post("Bearer t0ken-t0ken-t0ken", `{"command": "echo $$; sleep 60", "timeout": 0.5}`)
	d, _ := m["data"].(map[string]any)
	if code != http.StatusOK || d["status"] != "running" {
		t.Fatalf("exec: %d %v", code, m)
	}
	out, _ := d["stdout"].(string)
	pgid, _ := strconv.Atoi(strings.TrimSpace(out))
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for l := range lines {
		all = append(all, l)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v, want exit 0\n%s", err, strings.Join(all, "\n"))
	}
	if pgid == 0 || syscall.Kill(-pgid, 0) == nil {
		t.Errorf("the command's process group %d outlived the server", pgid)
	}
	var msgs []string
	for _, l := range all {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil {
			msgs = append(msgs, m["msg"].(string))
		} else if !strings.HasPrefix(l, "cmdguard: WARNING") {
			t.Errorf("log line is not JSON: %q", l)
		}
	}
	if got := strings.Join(msgs, ","); !strings.Contains(got, "request,decision,request,shutting down") || !strings.HasSuffix(got, "stopped") {
		t.Errorf("log records: %s", got)
	}
}

// TestServeTextLogAndSIGINT: --log-format text logs for people; SIGINT
// ends the server with exit 0; bad flags exit 3.
func TestServeTextLogAndSIGINT(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--log-format", "xml"}, {"--ask", "maybe"}, {"--max-commands", "0"}, {"--output-limit", "lots"}, {"extra"}} {
		cmd := osexec.Command(cmdguardBin(t), append([]string{"serve", "--listen", "127.0.0.1:0", "--cwd", t.TempDir()}, args...)...)
		var ee *osexec.ExitError
		if out, err := cmd.CombinedOutput(); !errors.As(err, &ee) || ee.ExitCode() != exitError {
			t.Errorf("serve %v: %v, want exit 3\n%s", args, err, out)
		}
	}
	cmd := osexec.Command(cmdguardBin(t), "serve", "--listen", "127.0.0.1:0", "--cwd", t.TempDir(), "--log-format", "text")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(stderr)
	if !sc.Scan() || !strings.Contains(sc.Text(), "level=INFO msg=listening addr=127.0.0.1:") {
		t.Fatalf("first text log line: %q", sc.Text())
	}
	cmd.Process.Signal(os.Interrupt)
	var rest []string
	for sc.Scan() {
		rest = append(rest, sc.Text())
	}
	if err := cmd.Wait(); err != nil || !strings.Contains(strings.Join(rest, "\n"), "msg=stopped") {
		t.Errorf("serve after SIGINT: %v\n%s", err, strings.Join(rest, "\n"))
	}
}

// startServe starts `cmdguard serve` on a free loopback port in dir and
// returns the command and the address it listens on.
func startServe(t *testing.T, dir string, args ...string) (*osexec.Cmd, string) {
	t.Helper()
	cmd := osexec.Command(cmdguardBin(t), append([]string{"serve", "--listen", "127.0.0.1:0", "--cwd", dir}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["msg"] == "listening" {
			go io.Copy(io.Discard, stderr)
			return cmd, m["addr"].(string)
		}
	}
	t.Fatal("serve never said where it listens")
	return nil, ""
}

// TestServeTokenNotPassedOn: the token in $CMDGUARD_SERVE_TOKEN is not in
// the commands' environment.
func TestServeTokenNotPassedOn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".cmdguard.yaml"), []byte("version: 1\nallow: [echo]\n"), 0o644)
	cmd := osexec.Command(cmdguardBin(t), "serve", "--listen", "127.0.0.1:0", "--cwd", dir)
	cmd.Env = append(os.Environ(), tokenEnv+"=env-t0ken-env-t0ken", "OTHER_VAR=kept")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var addr string
	sc := bufio.NewScanner(stderr)
	for addr == "" && sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["msg"] == "listening" {
			addr, _ = m["addr"].(string)
		}
	}
	go io.Copy(io.Discard, stderr)
	req, _ := http.NewRequest("POST", "http://"+addr+"/v1/bash/exec", strings.NewReader(`{"command": "echo ${CMDGUARD_SERVE_TOKEN:-absent} ${OTHER_VAR:-absent}"}`))
	req.Header.Set("Authorization", "Bearer env-t0ken-env-t0ken")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m struct{ Data struct{ Stdout string } }
	json.NewDecoder(resp.Body).Decode(&m)
	if m.Data.Stdout != "absent kept\n" {
		t.Errorf("the command saw %q, want the token absent and other variables kept", m.Data.Stdout)
	}
}

// TestServeSIGKILL: a SIGKILL of the server leaves no command running.
func TestServeSIGKILL(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".cmdguard.yaml"), []byte("version: 1\nallow: [echo, sleep]\n"), 0o644)
	cmd, addr := startServe(t, dir)
	resp, err := http.Post("http://"+addr+"/v1/bash/exec", "application/json", strings.NewReader(`{"command": "echo $$; sleep 60", "timeout": 0.5}`))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Data struct{ Status, Stdout string }
	}
	json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	pgid, _ := strconv.Atoi(strings.TrimSpace(m.Data.Stdout))
	if m.Data.Status != "running" || pgid == 0 {
		t.Fatalf("exec: %+v", m)
	}
	cmd.Process.Kill()
	cmd.Wait()
	deadline := time.Now().Add(promptDeadline)
	for syscall.Kill(-pgid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d outlived the SIGKILLed server", pgid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeSIGKILLOwnGroup: a SIGKILL of the server also ends what a
// command put in a process group of its own (timeout does), not only the
// command's group.
func TestServeSIGKILLOwnGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".cmdguard.yaml"), []byte("version: 1\nallow: [echo, sleep, timeout]\n"), 0o644)
	cmd, addr := startServe(t, dir)
	resp, err := http.Post("http://"+addr+"/v1/bash/exec", "application/json",
		strings.NewReader(`{"command": "timeout 300 sleep 301 & echo $!; sleep 300", "timeout": 0.5}`))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Data struct{ Status, Stdout string }
	}
	json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	pid, _ := strconv.Atoi(strings.TrimSpace(m.Data.Stdout))
	if m.Data.Status != "running" || pid == 0 {
		t.Fatalf("exec: %+v", m)
	}
	cmd.Process.Kill()
	cmd.Wait()
	alive := func() bool {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return false
		}
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		return i > 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
	}
	deadline := time.Now().Add(promptDeadline)
	for alive() {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("timeout (pid %d, a group of its own) outlived the SIGKILLed server", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
