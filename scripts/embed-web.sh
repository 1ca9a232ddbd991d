#!/bin/sh
# embed-web.sh: the web page's files as C arrays, for nasperfd to serve.
#
#   embed-web.sh OUT.c URLPATH|TYPE|FILE ...
#
# Each file is kept twice, as it is and gzip-compressed (gzip -9n, so the
# same input gives the same bytes), with an ETag from its SHA-256.  OUT.c
# defines web_assets[] and web_nassets as daemon/web.h declares them.
# Needs only what every Debian has: gzip, od, sha256sum, awk.
set -eu

if [ $# -lt 2 ]; then
	echo "usage: embed-web.sh OUT.c URLPATH|TYPE|FILE ..." >&2
	exit 2
fi
out=$1
shift
tmp=$out.tmp
trap 'rm -f "$tmp"' EXIT

# bytes NAME: stdin as "static const unsigned char NAME[] = {...};"
bytes() {
	od -An -v -tx1 | awk -v name="$1" '
	BEGIN { printf "static const unsigned char %s[] = {\n", name; n = 0 }
	{
		for (i = 1; i <= NF; i++) {
			printf "%s0x%s,", (n % 12 == 0 ? "\t" : " "), $i
			if (++n % 12 == 0)
				printf "\n"
		}
	}
	END {
		if (n == 0)
			printf "\t0"
		else if (n % 12 != 0)
			printf "\n"
		printf "};\n"
	}'
}

{
	echo "/* Made by scripts/embed-web.sh from web/: do not edit. */"
	echo "#include <stddef.h>"
	echo "#include \"web.h\""
} >"$tmp"

i=0
table=""
for spec in "$@"; do
	path=${spec%%|*}
	rest=${spec#*|}
	type=${rest%%|*}
	file=${rest#*|}
	if [ ! -r "$file" ]; then
		echo "embed-web.sh: $file: not readable" >&2
		exit 1
	fi
	bytes "web_raw_$i" <"$file" >>"$tmp"
	gzip -9n -c "$file" | bytes "web_gz_$i" >>"$tmp"
	tag=$(sha256sum "$file" | cut -c1-20)
	raw=$(wc -c <"$file" | tr -d ' ')
	gz=$(gzip -9n -c "$file" | wc -c | tr -d ' ')
	table="$table	{ \"$path\", \"$type\", \"\\\"$tag\\\"\", web_raw_$i, $raw, web_gz_$i, $gz },
"
	i=$((i + 1))
done

{
	echo "const struct web_asset web_assets[] = {"
	printf "%s" "$table"
	echo "};"
	echo "const size_t web_nassets = $i;"
} >>"$tmp"
mv "$tmp" "$out"
trap - EXIT
