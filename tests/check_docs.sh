#!/bin/bash
# --help, the man page and the completions all come from the option table
# (src/app/docs.c): every long option --help lists is in the man page and
# in both completion scripts; the bash script completes values and presets
# as a user would see; the man page renders without warnings (when man is
# installed) and the zsh script parses (when zsh is). $PESCOPE_BIN.
set -u
bin=${PESCOPE_BIN:?}
dir=$(mktemp -d "${TMPDIR:-/tmp}/pescope-docs.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
fails=0 n=0
ok() { n=$((n + 1)); echo "ok   $*"; }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL $*"; }

"$bin" --help >"$dir/help" || bad "--help"
"$bin" manpage >"$dir/pescope.1" || bad "manpage"
"$bin" completion bash >"$dir/bash" || bad "completion bash"
"$bin" completion zsh >"$dir/zsh" || bad "completion zsh"
"$bin" completion fish >/dev/null 2>&1; [ $? -eq 2 ] && ok "completion fish: exit 2" || bad "completion fish"

opts=$(grep -o -- '--[a-z][a-z0-9-]*[a-z0-9]' "$dir/help" | sort -u)
[ "$(echo "$opts" | wc -l)" -gt 40 ] && ok "--help lists $(echo "$opts" | wc -l) long options" || bad "--help lists too few"
for o in $opts; do
	m=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	grep -q -- "$m" "$dir/pescope.1" || { bad "man page lacks $o"; continue; }
	grep -q -- "$o" "$dir/bash" || { bad "bash completion lacks $o"; continue; }
	grep -q -- "$o" "$dir/zsh" || { bad "zsh completion lacks $o"; continue; }
done
ok "every long option is in the man page and both completions"

complete_words() { # complete_words WORD... : COMPREPLY for the last word
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pescope; echo "${COMPREPLY[*]}"' _ "$dir/bash" "$@"
}
[ "$(complete_words pescope -e r)" = "relative rope rope2d" ] && ok "bash: -e r" || bad "bash: -e r -> $(complete_words pescope -e r)"
[ "$(complete_words pescope --rope-scaling l)" = "linear longrope llama3" ] && ok "bash: --rope-scaling l" || bad "bash: --rope-scaling l"
[ "$(complete_words pescope --preset gpt)" = "gpt-j-6b gpt-neox-20b gpt2" ] && ok "bash: --preset gpt" || bad "bash: --preset gpt -> $(complete_words pescope --preset gpt)"
[ "$(complete_words pescope d)" = "dump" ] && ok "bash: command d" || bad "bash: command d"
[ "$(complete_words pescope l)" = "lesson" ] && ok "bash: command l" || bad "bash: command l -> $(complete_words pescope l)"
[ "$(complete_words pescope --color t)" = "truecolor" ] && ok "bash: --color t" || bad "bash: --color t"
[ "$(complete_words pescope --lesson i)" = "intro" ] && ok "bash: --lesson i" || bad "bash: --lesson i"
[ "$(complete_words pescope -t cos)" = "cosine cos" ] && ok "bash: -t cos (dump's tables)" || bad "bash: -t cos -> $(complete_words pescope -t cos)"

# each command's --help lists only options the man page and completions have
for c in snapshot dump lesson bench completion manpage; do
	"$bin" "$c" --help >"$dir/help-$c" 2>&1 || { bad "$c --help"; continue; }
	head -1 "$dir/help-$c" | grep -q "^Usage: pescope $c" || { bad "$c --help: no usage line"; continue; }
	for o in $(grep -o -- '--[a-z][a-z0-9-]*[a-z0-9]' "$dir/help-$c" | sort -u); do
		grep -q -- "$o" "$dir/bash" || bad "$c --help lists $o, bash lacks it"
	done
done
ok "every command's --help"

if command -v man >/dev/null 2>&1; then
	w=$(MANWIDTH=80 man -l "$dir/pescope.1" 2>&1 >/dev/null)
	[ -z "$w" ] && ok "man -l renders without warnings" || bad "man -l: $w"
else
	echo "skip man -l: man is not installed"
fi
if command -v zsh >/dev/null 2>&1; then
	zsh -n "$dir/zsh" && ok "zsh -n" || bad "zsh -n"
else
	echo "skip zsh -n: zsh is not installed"
fi
echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
