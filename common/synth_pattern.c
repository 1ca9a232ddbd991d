/*
 * synth_pattern.c: the synthetic streams' bytes, and their readers' mark.
 */
#include "config.h"

#include <string.h>

#include "synth_pattern.h"

/* SplitMix64 (Steele, Lea and Flood 2014): one output per call. */
static uint64_t
synth_pattern_next(uint64_t *state)
{
	uint64_t	z;

	z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

int
synth_pattern_parse(const char *s, enum synth_pattern *p)
{
	if (strcmp(s, "zero") == 0)
		*p = SYNTH_PATTERN_ZERO;
	else if (strcmp(s, "random") == 0)
		*p = SYNTH_PATTERN_RANDOM;
	else if (strcmp(s, "mixed") == 0)
		*p = SYNTH_PATTERN_MIXED;
	else
		return (-1);
	return (0);
}

const char *
synth_pattern_name(enum synth_pattern p)
{
	switch (p) {
	case SYNTH_PATTERN_ZERO:
		return ("zero");
	case SYNTH_PATTERN_RANDOM:
		return ("random");
	case SYNTH_PATTERN_MIXED:
		return ("mixed");
	}
	return ("?");
}

/* Bytes are stored little-endian by hand: armhf and x86 must agree. */
void
synth_pattern_fill(enum synth_pattern p, uint64_t seed, unsigned char *period,
    size_t len)
{
	uint64_t	state = seed;
	size_t		i, j;

	if (p == SYNTH_PATTERN_ZERO) {
		memset(period, 0, len);
		return;
	}
	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t	v = synth_pattern_next(&state);

		for (j = 0; j < 8; j++)
			period[i + j] = (unsigned char)(v >> (8 * j));
	}
	if (p != SYNTH_PATTERN_MIXED)
		return;
	for (i = 0; i + SYNTH_PATTERN_BLOCK <= len; i += SYNTH_PATTERN_BLOCK)
		memset(period + i + SYNTH_PATTERN_BLOCK / 2, 0,
		    SYNTH_PATTERN_BLOCK / 2);
}

void
synth_pattern_extend(unsigned char *period, size_t len, size_t more)
{
	size_t	i;

	for (i = len; i < len + more; i += len)
		memcpy(period + i, period, len + more - i < len ? len + more -
		    i : len);
}

/* memcmp a piece at a time; look for the byte only in a piece that differs. */
size_t
synth_pattern_check(const unsigned char *period, size_t len, uint64_t off,
    const unsigned char *buf, size_t n)
{
	size_t	done = 0, pos, i;

	pos = (size_t)(off % len);
	while (done < n) {
		size_t	k = len - pos;

		if (k > n - done)
			k = n - done;
		if (memcmp(period + pos, buf + done, k) != 0) {
			i = 0;
			while (period[pos + i] == buf[done + i])
				i++;
			return (done + i);
		}
		done += k;
		pos = 0;
	}
	return (n);
}

int
synth_lowat(uint64_t moved, double secs, uint64_t left)
{
	uint64_t	want = 1, r;

	if (secs > 0) {
		r = (uint64_t)((double)moved / secs * SYNTH_LOWAT_MS / 1e3);
		if (r >= SYNTH_LOWAT_MIN) {
			want = SYNTH_LOWAT_MAX;
			while (want > r)
				want >>= 1;
		}
	}
	if (want > left)
		want = left > 0 ? left : 1;
	return ((int)want);
}
