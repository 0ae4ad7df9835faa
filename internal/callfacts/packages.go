package callfacts

import (
	"sort"
	"strings"
)

// Package managers, as tools.txt describes them: which subcommands remove
// packages, which list the installed ones, which options remove them all.
// The policy judges a removal by what it removes (every installed package,
// the system's) rather than by the manager's name.

// PackageRemoval reports whether c removes installed packages.
func (c *Cmd) PackageRemoval() bool {
	return c.packageOp(c.tool().uninstall)
}

// PackageInventory reports whether c lists the installed packages (pip
// freeze, brew list, dpkg -l, npm ls -g).
func (c *Cmd) PackageInventory() bool {
	return c.packageOp(c.tool().inventory)
}

// RemovesEveryPackage reports whether a removal takes every installed
// package by its options (gem uninstall --all, pipx uninstall-all).
func (c *Cmd) RemovesEveryPackage() bool {
	for _, a := range c.tool().all {
		if c.Has(a) || c.Sub(0) == a || c.Sub(1) == a {
			return true
		}
	}
	return false
}

// SystemPackages reports whether program name manages the system's
// packages (apt, dnf, pacman …).
func SystemPackages(name string) bool { return tool(name).system }

// packageOp: the subcommand is one of ops, or, for managers driven by
// options (pacman -R, rpm -e, dpkg -P), one of the option ops is given
// (pacman -Rns counts as -R).
func (c *Cmd) packageOp(ops []string) bool {
	for _, op := range ops {
		if !strings.HasPrefix(op, "-") {
			if c.Sub(0) == op {
				return true
			}
			continue
		}
		for _, a := range c.Args {
			if a == op || len(op) == 2 && len(a) > 2 && a[1] != '-' && strings.HasPrefix(a, op) {
				return true
			}
		}
	}
	return false
}

// PackageManagers are the programs tools.txt knows to remove packages.
func PackageManagers() []string {
	var out []string
	for name, s := range toolTable() {
		if s.uninstall != nil {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
