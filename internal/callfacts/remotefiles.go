package callfacts

import (
	"path"
	"strings"
)

// s21 disguise: a script the line writes, copies to a host and runs there
// (printf '…' > /tmp/x.sh && scp /tmp/x.sh h:/tmp/ && ssh h sh /tmp/x.sh)
// is read like ssh h '…' with the text shown: the copy carries the text
// the line wrote to the path it names on that host. Only the files copied
// there are known on that host; while its ssh command is read they stand
// in for this machine's (whose files are not there), and the remote
// command's relative paths start in the login's home.

// remoteHost is the host part of an scp/rsync operand or an ssh
// destination (user@h:path, h): "" for a local path or a URL.
func remoteHost(op string) (host, p string, ok bool) {
	if strings.Contains(op, "://") || strings.HasPrefix(op, "/") || strings.HasPrefix(op, ".") || strings.HasPrefix(op, "~") {
		return "", "", false
	}
	h, p, ok := strings.Cut(op, ":")
	if !ok || h == "" || strings.ContainsAny(h, "/$") {
		return "", "", false
	}
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	return strings.ToLower(h), p, true
}

// copyRemote records the files an scp or rsync copies to a host when
// the line wrote their text.
func (n *normalizer) copyRemote(c *Cmd) {
	if len(c.Pos) < 2 {
		return
	}
	host, dst, ok := remoteHost(c.Pos[len(c.Pos)-1])
	if !ok {
		return
	}
	for _, src := range c.Pos[:len(c.Pos)-1] {
		t, ok := n.files[NormPath(src, n.cwd, n.home)]
		if !ok || !t.known {
			continue
		}
		if n.remote == nil {
			n.remote = map[string]map[string]text{}
		}
		m := n.remote[host]
		if m == nil {
			m = map[string]text{}
			n.remote[host] = m
		}
		d := dst
		if d == "" || d == "." {
			d = "~"
		}
		if !strings.HasPrefix(d, "/") && !strings.HasPrefix(d, "~") {
			d = "~/" + d
		}
		// h:/tmp/ and h:/tmp name a folder the file lands in, h:/tmp/x.sh the file
		m[NormPath(d, n.home, n.home)] = t
		m[NormPath(strings.TrimSuffix(d, "/")+"/"+path.Base(src), n.home, n.home)] = t
	}
}

// onHost runs read with the files the line copied to host standing in for
// this machine's, from the login's home; nothing changes when it copied
// none there.
func (n *normalizer) onHost(host string, read func()) {
	m := n.remote[strings.ToLower(host)]
	if m == nil {
		read()
		return
	}
	files, cwd := n.files, n.cwd
	n.files, n.cwd = m, n.home
	defer func() { n.files, n.cwd = files, cwd }()
	read()
}

// sshDest is the host an ssh command connects to.
func sshDest(args []string) string {
	if r := SkipFlags(args, "ipl oFJLRDbcEemOQSWwB"); len(r) > 0 {
		h := r[0]
		if i := strings.LastIndexByte(h, '@'); i >= 0 {
			h = h[i+1:]
		}
		return h
	}
	return ""
}
