package agent

// fakeClaude stands in for the claude executable: it plays an agent's
// hook events through the real `warden hook` (so events are recorded and
// tagged with WARDEN_TASK_ID exactly as Claude Code's hooks would be) and
// does real work in its worktree, following FAKE_PLAN.
const fakeClaude = `#!/bin/sh
sid="fake-$WARDEN_TASK_ID"
hook() {
  printf '{"session_id":"%s","cwd":"%s","hook_event_name":"%s"%s}' "$sid" "$PWD" "$1" "$2" |
    "$WARDEN_BIN" hook --harness claude >/dev/null 2>>"$PWD/.warden/hook.err"
}
echo "fake claude $*"
hook SessionStart ',"source":"startup"'
case "$FAKE_PLAN" in
commit)
  hook PreToolUse ',"tool_name":"Write","tool_input":{"file_path":"hello.txt"}'
  echo hello > hello.txt
  hook PostToolUse ',"tool_name":"Write"'
  hook Notification ',"notification_type":"idle_prompt"'
  hook UserPromptSubmit ',"prompt":"go on"'
  hook PreToolUse ',"tool_name":"Bash","tool_input":{"command":"git commit"}'
  git add hello.txt && git -c user.email=a@b -c user.name=agent commit -qm "add hello"
  hook PostToolUse ',"tool_name":"Bash"'
  hook Stop ''
  hook SessionEnd ',"reason":"other"'
  echo "fake agent done"
  ;;
needsinput)
  # Claude Code 2.1.330's auto mode stopping at its dialog, then a
  # notification type no warden knows, then the work going on.
  hook PreToolUse ',"tool_name":"Bash","tool_input":{"command":"git commit"}'
  hook Notification ',"notification_type":"agent_needs_input","message":"Claude needs your attention"'
  hook Notification ',"notification_type":"brand_new_kind","message":"something new"'
  git add -A 2>/dev/null; echo hi > hi.txt; git add hi.txt && git -c user.email=a@b -c user.name=agent commit -qm "add hi"
  hook PostToolUse ',"tool_name":"Bash"'
  hook Stop ''
  ;;
paused)
  hook PreToolUse ',"tool_name":"Read"'
  hook PostToolUse ',"tool_name":"Read"'
  hook Stop ''
  ;;
nocommit)
  hook PreToolUse ',"tool_name":"Read"'
  hook Stop ''
  ;;
hang)
  hook PreToolUse ',"tool_name":"Write","tool_input":{"file_path":"wip.txt"}'
  echo "work in progress" > wip.txt
  echo agent-busy
  exec sleep 600
  ;;
idle)
  exec sleep 600
  ;;
dialog)
  # The policy asks about cat .env; the fake draws Claude Code's dialog.
  # Escape opens the prompt for "what to do instead"; the message sent
  # stays on screen in the history under the prompt's mark (as a quick
  # agent's does), then the agent finishes and its window closes.
  printf 'STRIPE_SECRET_KEY=sk_live_51Habc0123456789abcdef\n' > .env
  hook PreToolUse ',"tool_name":"Bash","tool_input":{"command":"cat .env"}'
  printf 'Bash command\n  cat .env\nDo you want to proceed?\n> 1. Yes\n  2. No\n'
  stty -icanon -echo min 1
  key=$(dd bs=1 count=1 2>/dev/null | od -An -tx1 | tr -d ' ')
  stty icanon echo
  printf '\033[5A\033[J' # drawn over in place, as a TUI does
  if [ "$key" = 1b ]; then
    printf '❯ '
    IFS= read -r line
    printf '\n❯ %s\n' "$line"
    printf '%s\n' "$line" > "$HOME/told.txt"
    hook UserPromptSubmit ',"prompt":"denied"'
    hook Stop ''
  fi
  sleep 1
  ;;
latecommit)
  # Stops before committing; when the Stop is blocked it commits and
  # stops again, as Claude Code carries on with a blocked Stop's reason.
  hook PreToolUse ',"tool_name":"Write","tool_input":{"file_path":"late.txt"}'
  echo late > late.txt
  out=$(printf '{"session_id":"%s","cwd":"%s","hook_event_name":"Stop"}' "$sid" "$PWD" | "$WARDEN_BIN" hook --harness claude 2>>"$PWD/.warden/hook.err")
  echo "first stop: $out"
  if printf '%s' "$out" | grep -q '"decision":"block"'; then
    hook PreToolUse ',"tool_name":"Bash","tool_input":{"command":"git commit"}'
    git add late.txt && git -c user.email=a@b -c user.name=agent commit -qm "late commit"
    hook Stop ',"stop_hook_active":true'
  fi
  hook SessionEnd ',"reason":"other"'
  ;;
memhog)
  # Doubles a string past the agent's memory limit (64M in the test).
  # The address-space cap keeps a machine without the limit safe: there
  # the string reaches 128M and the agent exits 0, failing the test.
  hook PreToolUse ',"tool_name":"Bash","tool_input":{"command":"make big"}'
  ulimit -v 786432
  exec awk 'BEGIN { s = "x"; while (length(s) < 134217728) s = s s; print length(s) }'
  ;;
esac
`
