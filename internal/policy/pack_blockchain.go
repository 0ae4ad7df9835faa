package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Blockchain transactions: a command that signs a transaction and sends
// it to a network cannot be taken back once mined. Which commands send,
// which contract functions move funds or cannot be undone, and how each
// tool names its network are data (callfacts/chain.txt). A transaction
// to this machine's node (anvil, a hardhat node, solana-test-validator)
// or a test network (sepolia, devnet) spends nothing real; one to a main
// network, or to a network the line does not show (a variable without a
// test name, a config file), may.
func blockchainRules() []Rule {
	tools := callfacts.ChainTools()
	return []Rule{
		cmdRule("external.systems:chain-irreversible", Deny, "A transaction on a main network that moves funds or cannot be undone (cast send --value 1ether --rpc-url $MAINNET_RPC_URL, cast send TOKEN 'renounceOwnership()', solana transfer … --url mainnet-beta, solana program close, set-upgrade-authority --final); the commands, functions and networks are data (callfacts/chain.txt)", tools,
			func(e *Env, c *Cmd) string {
				tx := c.ChainTxLine(e.F.Command)
				if tx == nil || tx.Net != "main" || (tx.Kind != "move" && tx.Kind != "final") {
					return ""
				}
				what := "moves funds"
				if tx.Kind == "final" {
					what = "cannot be undone"
				}
				return c.Name + " sends a transaction on a main network (" + tx.NetWord + ") that " + what + ": " + c.String()
			},
			[]string{"cast send 0xabc --value 2ether --rpc-url $MAINNET_RPC_URL --private-key $PK", "cast send $TOKEN 'transfer(address,uint256)' 0xdef 1000 --rpc-url https://eth-mainnet.g.alchemy.com/v2/$KEY --account ops",
				"cast send $T \"renounceOwnership()\" -r $ETH_MAINNET_RPC --account a", "cast send $P 'upgradeTo(address)' 0x0000000000000000000000000000000000000000 --rpc-url $MAINNET_RPC_URL",
				"solana transfer 7xKX ALL --url mainnet-beta", "solana -um transfer 7xKX 5", "solana program close 9xQe --url https://api.mainnet-beta.solana.com --bypass-warning",
				"solana program set-upgrade-authority 9xQe --final -u mainnet-beta", "spl-token transfer MINT 100 RCPT --url mainnet-beta", "npx sui client transfer-sui --to 0x1 --sui-coin-object-id 0x2 --env mainnet", "lightning-cli --mainnet close 0331f8 0", "bitcoin-cli -chain=main sendtoaddress bc1q 0.5"},
			[]string{"cast send 0xabc --value 2ether --rpc-url http://127.0.0.1:8545 --private-key 0xac09", "cast send 0xabc --value 2ether --rpc-url $SEPOLIA_RPC_URL", "cast send $T 'renounceOwnership()' --unlocked --from 0xf39F",
				"solana transfer 7xKX 1 --url devnet", "solana transfer 7xKX 1 -ul", "lncli --network=regtest closeallchannels --force", "bitcoin-cli -testnet sendtoaddress tb1q 0.1", "solana program close 9xQe --url localhost", "cast call $T 'balanceOf(address)(uint256)' 0x1 --rpc-url $MAINNET_RPC_URL",
				"solana balance --url mainnet-beta", "cast send $P 'upgradeTo(address)' 0x0000000000000000000000000000000000000000 --rpc-url https://eth-sepolia.g.alchemy.com/v2/k"}),
		cmdRule("external.systems:chain-transaction", Ask, "A transaction signed and sent to a main network or one the line does not show (forge script --broadcast --rpc-url $MAINNET_RPC_URL, hardhat run --network mainnet, solana program deploy --url mainnet-beta, cast send … approve, a solana command whose cluster a config file picks); local nodes and test networks are left alone; the commands and networks are data (callfacts/chain.txt)", tools,
			func(e *Env, c *Cmd) string {
				tx := c.ChainTxLine(e.F.Command)
				if tx == nil || !tx.Real() {
					return ""
				}
				where := "a main network (" + tx.NetWord + ")"
				if tx.Net == "unknown" {
					where = "a network the line does not show"
					if tx.NetWord != "" {
						where += " (" + tx.NetWord + ")"
					}
				}
				if tx.Kind == "unlock" {
					return c.Name + " unlocks a wallet's signing keys on " + where + ": " + c.String()
				}
				return c.Name + " signs and sends a transaction (" + tx.Kind + ") to " + where + ": " + c.String()
			},
			[]string{"forge script script/Deploy.s.sol --rpc-url $MAINNET_RPC_URL --broadcast --account deployer", "npx hardhat run scripts/x.js --network mainnet", "pnpm exec hardhat ignition deploy ignition/modules/T.ts --network base",
				"solana program deploy target/deploy/v.so --url mainnet-beta", "cast send $V 'pause()' --rpc-url $RPC_URL --account ops", "solana transfer 7xKX 1", "anchor deploy --provider.cluster mainnet",
				"truffle migrate --network polygon", "bitcoin-cli -rpcwallet=w sendmany \"\" '{}'", "lncli payinvoice lnbc1", "bitcoin-cli walletpassphrase \"$P\" 60", "cast send $USDC 'approve(address,uint256)' 0x7a25 1 --rpc-url https://rpc.ankr.com/eth"},
			[]string{"forge script script/Deploy.s.sol --rpc-url $MAINNET_RPC_URL --sender 0xf39F", "forge script script/Deploy.s.sol --rpc-url http://127.0.0.1:8545 --broadcast", "npx hardhat run scripts/x.js", "npx hardhat run scripts/x.js --network sepolia",
				"solana program deploy target/deploy/v.so --url localhost", "anchor deploy --provider.cluster devnet", "cast send $V 'pause()' --rpc-url $SEPOLIA_RPC_URL", "cast send $V 'pause()'", "npx hardhat test --network mainnet",
				"forge test --fork-url $MAINNET_RPC_URL", "solana airdrop 2 --url devnet", "cast send --help", "bitcoin-cli -regtest sendtoaddress bcrt1q 1", "bitcoin-cli getbalance", "lncli listchannels", "bitcoin-cli help sendtoaddress"}),
		cmdRule("external.systems:sign-fetched", Deny, "A wallet signing a message fetched from the network as it runs (cast wallet sign --private-key $PK \"$(curl -s https://…/msg)\"): a signature for text nobody read can be a permit that drains the account", []string{"cast", "solana", "sui", "aptos", "near"},
			func(e *Env, c *Cmd) string {
				if !signs(c) {
					return ""
				}
				for _, a := range c.Args {
					if strings.Contains(a, "$(") && fetchCaptured(e) {
						return c.Name + " signs text fetched from the network: " + c.String()
					}
				}
				return ""
			},
			[]string{"cast wallet sign --private-key $PK \"$(curl -s https://claim.xyz/msg)\"", "cast wallet sign --account main \"$(wget -qO- https://x.io/m)\"", "solana sign-offchain-message \"$(curl -s https://x.io/m)\"", "cast wallet sign --no-hash $(curl -s https://a.b/h) --keystore k"},
			[]string{"cast wallet sign --private-key $PK 'hello'", "cast wallet sign --account dev \"$(cat msg.txt)\"", "cast wallet verify --address 0x1 \"$(curl -s https://x.io/m)\" 0xsig", "solana sign-offchain-message hello"}),
	}
}

// signs reports whether c signs a message with a wallet.
func signs(c *Cmd) bool {
	switch c.Name {
	case "cast":
		return c.Sub(0) == "wallet" && (c.Sub(1) == "sign" || c.Sub(1) == "sign-auth")
	case "solana":
		return c.Sub(0) == "sign-offchain-message"
	case "sui":
		return c.Sub(0) == "keytool" && c.Sub(1) == "sign"
	case "aptos", "near":
		return slicesHas(c.Pos, "sign") || slicesHas(c.Pos, "sign-message")
	}
	return false
}

func slicesHas(s []string, w string) bool {
	for _, x := range s {
		if x == w {
			return true
		}
	}
	return false
}

// fetchCaptured reports whether a command substitution of the line fetches
// from the network.
func fetchCaptured(e *Env) bool {
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d.Captured && (d.Name == "curl" || d.Name == "wget" || d.Name == "http" || d.Name == "https" || d.Name == "xh") {
			return true
		}
	}
	return false
}
