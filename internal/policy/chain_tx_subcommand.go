package policy

// chainTxSubcommandRule: a Cosmos-SDK chain binary's tx subcommand signs
// and broadcasts a transaction (callfacts.CosmosTx: any program, since
// each chain ships its own gaiad, osmosisd, junod…). One to a main chain
// or to a chain the line does not show (the client config's node) asks,
// like chain-transaction; a local node, a test chain, --generate-only
// and the offline tx subcommands are left alone. UnknownChange leaves
// these commands to this rule, so a test chain's send stays allowed.
func chainTxSubcommandRule() Rule {
	return Rule{ID: "external.systems:chain-tx-subcommand", Mode: Ask, Tools: shellTools, On: On(0).OrText(" tx "),
		Desc: "A Cosmos-SDK chain binary (gaiad, osmosisd, junod, injectived…) told to sign and broadcast a transaction — tx MODULE MSG --from KEY — to a main chain or one the line does not show: a vote, a validator's commission, a delegation or a send cannot be called back; --generate-only, sign/encode, a local node and a test chain are left alone",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if len(c.Pos) < 2 || c.Pos[0] != "tx" {
					continue
				}
				tx := c.CosmosTx()
				if tx == nil || !tx.Real() {
					continue
				}
				where := "a chain the line does not show"
				if tx.Net == "main" {
					where = "a main chain"
				}
				if tx.NetWord != "" {
					where += " (" + tx.NetWord + ")"
				}
				return c.Name + " signs and broadcasts a transaction (" + c.Pos[1] + " " + c.Sub(2) + ") to " + where + ": " + c.String()
			}
			return ""
		},
		Catch: []string{"osmosisd tx gamm swap-exact-amount-in 100uosmo 1 --from trader --chain-id osmosis-1 -y",
			"junod tx wasm execute juno1abc '{\"claim\":{}}' --from ops --node https://rpc.juno.example.net:443",
			"injectived tx staking delegate injvaloper1x 10inj --from w", "akash tx deployment close --dseq 42 --from deployer",
			"celestia-appd tx blob pay-for-blob 0x00 0xdead --from a --chain-id celestia"},
		Allow: []string{"gaiad tx bank send a b 1uatom --from a --generate-only", "gaiad tx sign tx.json --from a --chain-id cosmoshub-4",
			"osmosisd tx gamm swap-exact-amount-in 100uosmo 1 --from t --chain-id osmo-test-5", "simd tx bank send a b 1stake --from a --node tcp://localhost:26657",
			"gaiad query gov proposal 912", "gaiad tx staking delegate v 1uatom --help", "gaiad tx broadcast signed.json --node http://127.0.0.1:26657 --from a"},
	}
}
