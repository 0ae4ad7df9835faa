// Package install puts warden into Claude Code and takes it out again:
// it merges hook registrations and the status line into a settings.json,
// backs the file up and writes it atomically, prints the change as a diff,
// undoes exactly that on uninstall, and copies the three binaries
// (removing those an earlier version installed). `warden doctor` lives in
// internal/doctor and reads settings through this package.
//
// Settings files belong to the user and to other tools, so the rules are
// strict: a file warden cannot parse is refused, never overwritten; keys and
// hook entries warden did not add keep their values and their order; and a
// run that would change nothing writes nothing.
//
// The package has no cobra dependency; internal/cli is a thin layer on top.
package install
