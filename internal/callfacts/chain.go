package callfacts

import (
	_ "embed"
	"net"
	"net/url"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// chainText lists, as data, the commands that sign a blockchain
// transaction and send it, the contract functions that move funds or
// cannot be undone, and how each tool names its network.
//
//go:embed chain.txt
var chainText string

// ChainTx is a transaction a command signs and sends: its kind (chain.txt:
// send, approve, move, final), the network class it goes to (local, test,
// main, unknown) and the word that named the network.
type ChainTx struct {
	Kind, Net, NetWord string
}

// Real reports whether the transaction may spend real money: a main
// network, or one the line does not show (a variable, a config file).
func (t *ChainTx) Real() bool { return t.Net == "main" || t.Net == "unknown" }

type chainTables struct {
	tx       map[string][]wordRule
	fn       map[string]string            // function name (lower case) → kind
	net      map[string]string            // network word → class
	netopt   map[string][]string          // program → options naming the network
	netenv   map[string][]string          // program → variables naming the network
	netflag  map[string]map[string]string // program → option → class (bitcoin-cli -regtest)
	defaults map[string]string            // program → class when none is named
	addr     map[string]string            // address prefix (lower case) → class (bc1 main)
}

var chainTable = sync.OnceValue(func() *chainTables {
	t := &chainTables{fn: map[string]string{}, net: map[string]string{}, netopt: map[string][]string{}, netenv: map[string][]string{}, netflag: map[string]map[string]string{}, defaults: map[string]string{}, addr: map[string]string{}}
	var txLines []datatable.Line
	for _, l := range datatable.Lines("chain.txt", chainText) {
		f := l.Fields
		if len(f) < 3 {
			panic(l.Errorf("want tx|fn|net|netopt|default then its words, got %q", l.Text))
		}
		switch f[0] {
		case "tx":
			// PROGRAM may be a|b: programs that share their method
			// names (bitcoin-cli and its forks)
			for _, p := range strings.Split(f[2], "|") {
				pl := l
				pl.Fields = append([]string{f[1], p}, f[3:]...)
				txLines = append(txLines, pl)
			}
		case "netflag":
			if len(f) < 4 {
				panic(l.Errorf("want netflag PROGRAM CLASS FLAG…, got %q", l.Text))
			}
			if t.netflag[f[1]] == nil {
				t.netflag[f[1]] = map[string]string{}
			}
			for _, o := range f[3:] {
				t.netflag[f[1]][o] = f[2]
			}
		case "fn":
			for _, n := range f[2:] {
				t.fn[strings.ToLower(n)] = f[1]
			}
		case "net":
			for _, n := range f[2:] {
				t.net[strings.ToLower(n)] = f[1]
			}
		case "netopt":
			t.netopt[f[1]] = append(t.netopt[f[1]], f[2:]...)
		case "netenv":
			t.netenv[f[1]] = append(t.netenv[f[1]], f[2:]...)
		case "default":
			t.defaults[f[1]] = f[2]
		case "addr":
			for _, p := range f[2:] {
				t.addr[strings.ToLower(p)] = f[1]
			}
		default:
			panic(l.Errorf("unknown section %q (want tx, fn, net, netopt, netflag, netenv or default)", f[0]))
		}
	}
	t.tx = parseWords(txLines, true)
	return t
})

// chainKindRank orders the kinds by harm, for a function that raises a
// plain send.
var chainKindRank = map[string]int{"unlock": 0, "send": 0, "change": 1, "approve": 2, "move": 3, "final": 4}

// ChainTx is the transaction c signs and sends by chain.txt, nil when it
// sends none (a read, a build, a local test, a dry run or help).
func (c *Cmd) ChainTx() *ChainTx { return c.ChainTxLine("") }

// ChainTxLine is ChainTx with the command line it stands in: a variable
// the line sets (HARDHAT_NETWORK=mainnet, chain.txt netenv) names the
// network when no option does.
func (c *Cmd) ChainTxLine(line string) *ChainTx {
	t := chainTable()
	r := matchWords(t.tx[c.Name], c)
	if r == nil {
		return nil
	}
	tx := &ChainTx{Kind: r.kind}
	if c.Name == "cast" {
		tx.Kind = castKind(c, t, tx.Kind)
	}
	tx.Net, tx.NetWord = chainNet(c, t)
	if line != "" && tx.NetWord == "" {
		if v := lineEnvValue(line, t.netenv[c.Name]); v != "" {
			if k := classifyNet(v, t); k != "unknown" {
				tx.Net, tx.NetWord = k, v
			}
		}
	}
	return tx
}

// lineEnvValue is the value the line gives the first of vars (VAR=value
// as a word of its own: a prefix assignment, env's, an export), "" for
// none.
func lineEnvValue(line string, vars []string) string {
	for _, k := range vars {
		for off := 0; ; {
			i := strings.Index(line[off:], k+"=")
			if i < 0 {
				break
			}
			i += off
			off = i + len(k) + 1
			if i > 0 && !strings.ContainsRune(" \t;&|(", rune(line[i-1])) {
				continue
			}
			v := line[off:]
			if j := strings.IndexAny(v, " \t;&|)"); j >= 0 {
				v = v[:j]
			}
			if v = strings.Trim(v, `"'`); v != "" {
				return v
			}
		}
	}
	return ""
}

// castKind raises cast send's kind by the function it calls ("transfer(
// address,uint256)", renounceOwnership()) and by --value; a change of
// owner or implementation to the zero address cannot be undone.
func castKind(c *Cmd, t *chainTables, kind string) string {
	raise := func(k string) {
		if chainKindRank[k] > chainKindRank[kind] {
			kind = k
		}
	}
	zero := false
	for i, a := range c.Args {
		if name, _, ok := strings.Cut(a, "("); ok && name != "" && !strings.HasPrefix(name, "$") {
			if k := t.fn[strings.ToLower(name)]; k != "" {
				raise(k)
			}
		}
		if (a == "--value" || strings.HasPrefix(a, "--value=")) && i+1 <= len(c.Args) {
			v := strings.TrimPrefix(a, "--value=")
			if a == "--value" && i+1 < len(c.Args) {
				v = c.Args[i+1]
			}
			if strings.Trim(v, "0.") != "" && strings.Trim(v, "0.") != "ether" && strings.Trim(v, "0.") != "wei" {
				raise("move")
			}
		}
		if strings.HasPrefix(a, "0x") && len(a) == 42 {
			if r := strings.ToLower(strings.TrimLeft(a[2:], "0")); r == "" || r == "dead" {
				zero = true // the zero address or 0x…dEaD: no key will ever sign for it
			}
		}
	}
	if zero && kind == "change" {
		kind = "final"
	}
	return kind
}

// chainNet is the network class c's options name, else the program's
// default, else unknown. A local endpoint wins over a chain id: anvil
// forking mainnet keeps chain id 1, and the transaction goes to the node
// the URL names.
func chainNet(c *Cmd, t *chainTables) (class, word string) {
	flags := t.netflag[c.Name]
	for i, a := range c.Args {
		if k := flags[a]; k != "" {
			if k == "local" {
				return k, a
			} else if class == "" {
				class, word = k, a
			}
			continue
		}
		for _, o := range t.netopt[c.Name] {
			var v string
			switch {
			case a == o && i+1 < len(c.Args):
				v = c.Args[i+1]
			case strings.HasPrefix(a, o+"="):
				v = a[len(o)+1:]
			case len(o) == 2 && strings.HasPrefix(a, o) && len(a) > 2 && a[2] != '-':
				v = a[2:] // solana -um
			default:
				continue
			}
			if k := classifyNet(v, t); k == "local" {
				return k, v
			} else if class == "" {
				class, word = k, v
			}
		}
	}
	if class != "" {
		return class, word
	}
	for _, a := range c.Pos {
		if k := addrNet(a, t); k != "" {
			return k, a
		}
	}
	if d := t.defaults[c.Name]; d != "" {
		return d, ""
	}
	return "unknown", ""
}

// addrNet is the network class an address or a payment request names by
// its prefix (chain.txt addr: bc1… main, tb1… test, bcrt1… local), ""
// when a is none: shorter than 20, or not all letters and digits.
func addrNet(a string, t *chainTables) string {
	if len(a) < 20 || len(t.addr) == 0 {
		return ""
	}
	for i := 0; i < len(a); i++ {
		if b := a[i]; !('a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9') {
			return ""
		}
	}
	la := strings.ToLower(a)
	best, class := 0, ""
	for p, k := range t.addr {
		if len(p) > best && strings.HasPrefix(la, p) {
			best, class = len(p), k
		}
	}
	return class
}

// testWords in a variable's name or a host say the network is a test or
// local one: $SEPOLIA_RPC_URL, https://eth-sepolia.g.alchemy.com.
var testWords = []string{"sepolia", "goerli", "holesky", "hoodi", "testnet", "devnet", "localnet", "local", "anvil", "amoy", "mumbai", "fuji", "fork", "test"}

// classifyNet reads a network's name, URL or variable.
func classifyNet(v string, t *chainTables) string {
	lv := strings.ToLower(strings.Trim(v, `"'`))
	if c := t.net[lv]; c != "" {
		return c
	}
	if strings.Contains(lv, "://") {
		u, err := url.Parse(lv)
		if err != nil {
			return "unknown"
		}
		h := u.Hostname()
		if ip := net.ParseIP(h); t.net[h] == "local" || ip != nil && (ip.IsLoopback() || ip.IsPrivate()) || strings.HasSuffix(h, ".local") {
			return "local"
		}
		for _, w := range testWords {
			if strings.Contains(h, w) || strings.Contains(u.Path, w) {
				return "test"
			}
		}
		if strings.Contains(h, "$") {
			return "unknown"
		}
		return "main" // a public RPC endpoint
	}
	if strings.Contains(lv, "mainnet") {
		return "main"
	}
	for _, w := range testWords {
		if strings.Contains(lv, w) {
			return "test"
		}
	}
	if strings.HasPrefix(lv, "$") {
		for w, c := range t.net {
			if c == "main" && len(w) > 3 && strings.Contains(lv, w) {
				return "main" // $POLYGON_RPC, $ARBITRUM_URL
			}
		}
	}
	return "unknown"
}

// chainTools are the programs chain.txt's tx lines name.
var chainTools = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for n := range chainTable().tx {
		m[n] = true
	}
	return m
})

// ChainTools are the programs that sign and send transactions (sorted).
func ChainTools() []string { return chainToolList() }

var chainToolList = sync.OnceValue(func() []string { return programNames(chainTable().tx) })
