package decisionlog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"go.yaml.in/yaml/v3"
)

// Config is the decision_log: section of the managed file or of the
// user's config file ($XDG_CONFIG_HOME/cmdguard/config.yaml):
//
//	decision_log:
//	  file: {path: FILE, max_size: 10485760, keep: 3, enabled: true}
//	  http: {url: https://collector/logs, headers: {…}}
//	  otlp: {url: http://127.0.0.1:4318/v1/logs, headers: {…}}
//	  queue: 1024
//
// The file sink is on unless enabled: false; its path defaults to
// $XDG_STATE_HOME/cmdguard/decisions.jsonl.
type Config struct {
	File  FileConfig  `yaml:"file"`
	HTTP  *SinkConfig `yaml:"http"`
	OTLP  *SinkConfig `yaml:"otlp"`
	Queue int         `yaml:"queue"`
	// Source is the file the section came from ("" for the defaults).
	Source string `yaml:"-"`
}

// FileConfig configures the JSON-lines file.
type FileConfig struct {
	Enabled *bool  `yaml:"enabled"`
	Path    string `yaml:"path"`
	MaxSize int64  `yaml:"max_size"`
	Keep    int    `yaml:"keep"`
}

// SinkConfig configures a remote sink.
type SinkConfig struct {
	URL     string            `yaml:"url"`
	Headers map[string]string `yaml:"headers"`
}

// StateDir returns cmdguard's state directory: $XDG_STATE_HOME/cmdguard,
// else ~/.local/state/cmdguard.
func StateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "cmdguard")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "cmdguard-state")
	}
	return filepath.Join(home, ".local", "state", "cmdguard")
}

// UserConfigPath returns the user's config file:
// $XDG_CONFIG_HOME/cmdguard/config.yaml, else ~/.config/cmdguard/config.yaml.
func UserConfigPath() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "cmdguard", "config.yaml")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".config", "cmdguard", "config.yaml")
}

// LoadConfig returns the decision_log: section of the managed file when
// it has one (the administrator's choice wins), else the user config's,
// else the defaults. A section that does not parse is an error, returned
// with the defaults: the decisions are still kept locally.
func LoadConfig(managed, user string) (Config, error) {
	for _, path := range []string{managed, user} {
		if path == "" {
			continue
		}
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return Config{}, fmt.Errorf("decision log config: %w", err)
		}
		var doc struct {
			DecisionLog *Config `yaml:"decision_log"`
		}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return Config{}, fmt.Errorf("decision log config %s: %w", path, err)
		}
		if doc.DecisionLog != nil {
			doc.DecisionLog.Source = path
			return *doc.DecisionLog, doc.DecisionLog.check()
		}
	}
	return Config{}, nil
}

func (c *Config) check() error {
	for name, s := range map[string]*SinkConfig{"http": c.HTTP, "otlp": c.OTLP} {
		if s != nil && s.URL == "" {
			return fmt.Errorf("decision log config %s: %s: needs a url", c.Source, name)
		}
	}
	return nil
}

// Sinks builds the sinks of c.
func (c Config) Sinks(version string) []Sink {
	var sinks []Sink
	if c.File.Enabled == nil || *c.File.Enabled {
		path := c.File.Path
		if path == "" {
			path = filepath.Join(StateDir(), "decisions.jsonl")
		}
		sinks = append(sinks, &FileSink{Path: path, MaxBytes: c.File.MaxSize, Keep: c.File.Keep})
	}
	if c.HTTP != nil {
		sinks = append(sinks, &HTTPSink{URL: c.HTTP.URL, Headers: c.HTTP.Headers, Version: version})
	}
	if c.OTLP != nil {
		sinks = append(sinks, &OTLPSink{URL: c.OTLP.URL, Headers: c.OTLP.Headers, Version: version})
	}
	return sinks
}

// Report is what the processes that logged decisions left for
// `cmdguard status`: each sink's counts, summed over processes, and its
// last error.
type Report struct {
	Sinks map[string]Health `json:"sinks"`
}

// ReportPath is where the report is kept.
func ReportPath() string { return filepath.Join(StateDir(), "sinks.json") }

// ReadReport reads the report (empty when there is none).
func ReadReport() (Report, error) {
	r := Report{Sinks: map[string]Health{}}
	data, err := os.ReadFile(ReportPath())
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return Report{Sinks: map[string]Health{}}, err
	}
	if r.Sinks == nil {
		r.Sinks = map[string]Health{}
	}
	return r, nil
}

// CloseAndReport closes l within ctx and adds its counts to the report
// on disk (best effort: the report is for status, never for a check).
func (l *Logger) CloseAndReport(ctx context.Context) error {
	err := l.Close(ctx)
	if l == nil {
		return err
	}
	r, _ := ReadReport()
	for _, h := range l.Health() {
		old := r.Sinks[h.Sink]
		old.Sink = h.Sink
		old.Sent += h.Sent
		old.Dropped += h.Dropped
		old.Failed += h.Failed
		if h.LastErr != "" {
			old.LastErr = h.LastErr
		}
		if h.LastOK.After(old.LastOK) {
			old.LastOK = h.LastOK
			if h.LastErr == "" {
				old.LastErr = ""
			}
		}
		r.Sinks[h.Sink] = old
	}
	data, _ := json.MarshalIndent(r, "", "  ")
	if err := os.MkdirAll(StateDir(), 0o700); err == nil {
		tmp := ReportPath() + fmt.Sprintf(".%d.%d", os.Getpid(), time.Now().UnixNano())
		if os.WriteFile(tmp, data, 0o600) == nil {
			os.Rename(tmp, ReportPath())
		}
	}
	return err
}
