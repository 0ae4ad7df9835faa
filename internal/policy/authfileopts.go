package policy

// authFileOpts are, per program, the options that name the file a
// client logs in with (smbclient -A FILE, the Samba tools'
// --authentication-file): the client reads the user name and password
// from it to connect and prints neither, as a service's own -c config
// (secret_config_input.go). Per program, since -A means other things
// elsewhere (grep -A 3, ls -A).
var authFileOpts = map[string]map[string]bool{
	"smbclient":  sambaAuthOpts,
	"rpcclient":  sambaAuthOpts,
	"smbcacls":   sambaAuthOpts,
	"smbcquotas": sambaAuthOpts,
	"smbtree":    sambaAuthOpts,
	"net":        sambaAuthOpts,
	"smbget":     sambaAuthOpts,
	// Cassandra's JMX client: -pwf names the JMX password file it logs
	// in with (nodetool -h cass-1 -u jmx -pwf ~/.cassandra/jmx.pw status)
	"nodetool": {"-pwf": true, "--password-file": true},
	// daemons whose -f names the config they start or test with
	// (keepalived -t -f /etc/keepalived/keepalived.conf, haproxy -c -f
	// FILE, ddclient -file FILE): they read its VRRP, stats or DNS
	// passwords to work and print none of them (s23)
	"keepalived": {"-f": true, "--use-file": true},
	"haproxy":    {"-f": true},
	"ddclient":   {"-file": true},
}

var sambaAuthOpts = map[string]bool{"-A": true, "--authentication-file": true}
