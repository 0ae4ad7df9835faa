// Package service writes, removes and reports the service definition that
// keeps `warden serve` running: a systemd user unit (Restart=always) on
// Linux, a launchd agent (KeepAlive) on macOS. Rendering is pure (tested
// for both formats on any system); installing runs systemctl or launchctl.
package service

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// Formats.
const (
	Systemd = "systemd"
	Launchd = "launchd"
)

// Label is the launchd label and the systemd unit's base name.
const (
	Label    = "dev.warden.serve"
	UnitName = "warden.service"
)

// Spec is what the service runs.
type Spec struct {
	// Binary is the installed warden (run as `warden serve`).
	Binary string
	// Env is set for the daemon: WARDEN_HOME when not the default, and
	// PATH, so agents find claude and git as they do in the user's shell.
	Env map[string]string
	// LogDir receives launchd's stdout/stderr files (the daemon's own log
	// is JSON in $WARDEN_HOME/logs either way).
	LogDir string
}

// DefaultFormat is the format of this system.
func DefaultFormat() string {
	if runtime.GOOS == "darwin" {
		return Launchd
	}
	return Systemd
}

// Render returns the service file of format for s.
func Render(format string, s Spec) ([]byte, error) {
	if !filepath.IsAbs(s.Binary) {
		return nil, fmt.Errorf("binary %q is not an absolute path; install warden first (warden install)", s.Binary)
	}
	switch format {
	case Systemd:
		return renderSystemd(s), nil
	case Launchd:
		return renderLaunchd(s)
	}
	return nil, fmt.Errorf("service format %q: use systemd or launchd", format)
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// systemdQuote quotes a word for ExecStart/Environment (systemd.syntax):
// double quotes, with backslash, quote and % escaped (% is a specifier).
func systemdQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "%", "%%", "$", "$$")
	return `"` + r.Replace(s) + `"`
}

func renderSystemd(s Spec) []byte {
	var b bytes.Buffer
	b.WriteString(`# Written by "warden service install"; remove with "warden service uninstall".
[Unit]
Description=warden daemon (warden serve): hooks, task queue, scheduler, API
After=network.target

[Service]
Type=simple
`)
	fmt.Fprintf(&b, "ExecStart=%s serve\n", systemdQuote(s.Binary))
	for _, k := range sortedKeys(s.Env) {
		fmt.Fprintf(&b, "Environment=%s\n", systemdQuote(k+"="+s.Env[k]))
	}
	b.WriteString(`# systemctl --user reload: warden serve re-reads config.toml on SIGHUP.
ExecReload=/bin/kill -HUP $MAINPID
Restart=always
RestartSec=2
# SIGTERM lets running hooks and requests finish (they have 10 s).
TimeoutStopSec=30

[Install]
WantedBy=default.target
`)
	return b.Bytes()
}

func xmlText(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

func renderLaunchd(s Spec) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- Written by "warden service install"; remove with "warden service uninstall". -->
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>` + Label + `</string>
	<key>ProgramArguments</key>
	<array>
		<string>` + xmlText(s.Binary) + `</string>
		<string>serve</string>
	</array>
`)
	if len(s.Env) > 0 {
		b.WriteString("\t<key>EnvironmentVariables</key>\n\t<dict>\n")
		for _, k := range sortedKeys(s.Env) {
			fmt.Fprintf(&b, "\t\t<key>%s</key>\n\t\t<string>%s</string>\n", xmlText(k), xmlText(s.Env[k]))
		}
		b.WriteString("\t</dict>\n")
	}
	b.WriteString("\t<key>RunAtLoad</key>\n\t<true/>\n\t<key>KeepAlive</key>\n\t<true/>\n\t<key>ProcessType</key>\n\t<string>Background</string>\n")
	if s.LogDir != "" {
		fmt.Fprintf(&b, "\t<key>StandardOutPath</key>\n\t<string>%s</string>\n", xmlText(filepath.Join(s.LogDir, "daemon.stdout.log")))
		fmt.Fprintf(&b, "\t<key>StandardErrorPath</key>\n\t<string>%s</string>\n", xmlText(filepath.Join(s.LogDir, "daemon.stderr.log")))
	}
	b.WriteString("</dict>\n</plist>\n")
	return b.Bytes(), nil
}
