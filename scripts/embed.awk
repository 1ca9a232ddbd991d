# embed.awk: a text file as a C string, for files embedded at build time.
#   awk -v name=NAME -f embed.awk FILE >FILE.c
# gives "const char NAME[] = ...;", each line with its newline, backslashes
# and double quotes escaped.
BEGIN {
	printf "/* Made from a text file by scripts/embed.awk: do not edit. */\n"
	printf "const char %s[] =\n", name
	n = 0
}
{
	gsub(/\\/, "\\\\")
	gsub(/"/, "\\\"")
	printf "\t\"%s\\n\"\n", $0
	n++
}
END {
	if (n == 0)
		printf "\t\"\"\n"
	printf ";\n"
}
