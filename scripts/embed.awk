# embed.awk: a text file as a C string, for files embedded at build time.
#   awk -v name=NAME -f embed.awk FILE >FILE.c
# gives "const char NAME[] = ...;", each line with its newline, backslashes
# and double quotes escaped (character by character: what gsub makes of
# a backslash in its replacement differs between awks).
function esc(s,	out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\")
			out = out "\\\\"
		else if (c == "\"")
			out = out "\\\""
		else
			out = out c
	}
	return out
}
BEGIN {
	printf "/* Made from a text file by scripts/embed.awk: do not edit. */\n"
	printf "const char %s[] =\n", name
	n = 0
}
{
	printf "\t\"%s\\n\"\n", esc($0)
	n++
}
END {
	if (n == 0)
		printf "\t\"\"\n"
	printf ";\n"
}
