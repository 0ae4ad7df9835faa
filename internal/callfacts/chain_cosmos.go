package callfacts

import "strings"

// Cosmos-SDK chains ship one binary each (gaiad, osmosisd, junod,
// injectived, celestia-appd, akash, secretcli…), too many and too new to
// list, and every one spells a transaction the same way: the tx
// subcommand, a module, a message, and --from naming the key that signs
// (gaiad tx gov vote 912 yes --from validator --chain-id cosmoshub-4).
// Without --generate-only, --offline or --dry-run the binary signs it and
// broadcasts it to the node (--node, else the client config's), where it
// cannot be called back. The tx subcommands that only work on a file
// here (sign, encode, decode, validate-signatures, simulate) send nothing.

// cosmosOffline are the tx subcommands that sign, encode or check a
// transaction file without broadcasting it.
var cosmosOffline = map[string]bool{"sign": true, "sign-batch": true, "multisign": true, "multi-sign": true, "multisign-batch": true, "encode": true, "decode": true, "validate-signatures": true, "simulate": true, "aux-to-fee": true}

// cosmosNoSend are the options that keep a tx command from broadcasting.
var cosmosNoSend = []string{"--generate-only", "--offline", "--dry-run", "--help", "-h"}

// cosmosMoves are the messages that move funds out of the account or lock
// them (bank send, staking delegate).
var cosmosMoves = map[string]bool{"send": true, "multi-send": true, "delegate": true, "redelegate": true, "unbond": true, "transfer": true, "withdraw-all-rewards": true, "deposit": true, "fund-community-pool": true}

var cosmosNetOpts = map[string]bool{"--chain-id": true, "--node": true}

// CosmosTx is the transaction a Cosmos-SDK chain binary's tx subcommand
// signs and broadcasts, nil when c is no such command or sends nothing.
// The network is read from --node and --chain-id (a local node, a test
// chain's id), else unknown: the client config picks it.
func (c *Cmd) CosmosTx() *ChainTx {
	if !c.cosmosTxForm() {
		return nil
	}
	if cosmosOffline[c.Pos[1]] || c.Has(cosmosNoSend...) || argHasPrefix(c, "--generate-only=true", "--dry-run=true", "--offline=true") {
		return nil
	}
	tx := &ChainTx{Kind: "send", Net: "unknown"}
	if len(c.Pos) > 2 && cosmosMoves[c.Pos[2]] {
		tx.Kind = "move"
	}
	t := chainTable()
	for _, v := range c.OptValues(cosmosNetOpts) {
		k := classifyNet(v, t)
		if k == "local" {
			return nil // this machine's node: a localnet or an in-process simd
		}
		if k == "test" {
			tx.Net, tx.NetWord = k, v
			continue
		}
		if k == "main" && tx.Net == "unknown" {
			tx.Net, tx.NetWord = k, v // a public node, a main chain's name
		}
	}
	if tx.Net == "unknown" {
		if ids := c.OptValues(map[string]bool{"--chain-id": true}); len(ids) > 0 {
			tx.NetWord = ids[0]
		}
	}
	return tx
}

// argHasPrefix reports whether one of c's arguments starts with one of
// prefixes (--from=validator, --dry-run=true).
func argHasPrefix(c *Cmd, prefixes ...string) bool {
	for _, a := range c.Args {
		for _, p := range prefixes {
			if strings.HasPrefix(a, p) {
				return true
			}
		}
	}
	return false
}

// cosmosTxForm: c is spelled as a Cosmos-SDK tx command (tx MODULE …
// --from KEY), whether or not it broadcasts: UnknownChange leaves it to
// CosmosTx, so a --generate-only send stays allowed.
func (c *Cmd) cosmosTxForm() bool {
	return len(c.Pos) >= 2 && c.Pos[0] == "tx" && (c.Has("--from") || argHasPrefix(c, "--from="))
}
