/*
 * synth_pattern.h: the bytes of the synthetic data plane, shared by
 * nasperfd (source and sink) and nasperf (upload and verification), and
 * of the files nasperf bench writes; and how either end reads a stream.
 *
 * A stream is one period repeated: byte o of the stream is byte o % len of
 * a period of len bytes.  Serving it needs no per-byte work (the period is
 * made once), and a receiver that makes the same period from the pattern
 * and seed checks every byte.  The data plane's period is
 * SYNTH_STREAM_PERIOD: its source's copies into the socket read it from
 * the CPU's cache (a 4 MiB period, read from memory, held one loopback
 * stream to 0.80 of iperf3's, which sends one 1 MiB buffer; 256 KiB
 * matched it), which a NAS's small CPU needs more still.  A file's period
 * is SYNTH_PATTERN_PERIOD, so that a filesystem compressing records of up
 * to 1 MiB (ZFS, btrfs) finds no repeat in one.  The shorter period is the
 * longer one's first bytes.
 *
 * zero:   every byte 0.
 * random: byte i of the period is byte i % 8 (little-endian) of the
 *         (i / 8 + 1)-th output of SplitMix64 seeded with the seed:
 *         incompressible by any compressor whose window is under the
 *         period (64 MiB: gzip, LZ4 and zstd -3 leave 100 %; zstd -19 and
 *         --long, with windows of 8 MiB and more, find the repeats).
 * mixed:  the random bytes with the second half of every 4096-byte block
 *         zeroed: compresses to about half (gzip, LZ4, zstd -3: 50-51 %).
 */
#ifndef SYNTH_PATTERN_H
#define SYNTH_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define SYNTH_PATTERN_PERIOD	(4U << 20)	/* bytes, a file's */
#define SYNTH_STREAM_PERIOD	(256U << 10)	/* bytes, the data plane's */
#define SYNTH_PATTERN_BLOCK	4096U		/* mixed: half random, half 0 */

/*
 * A stream's reader (nasperfd's sink, nasperf's download) is woken once
 * SYNTH_LOWAT_MS of the stream has arrived (SO_RCVLOWAT), as a power of
 * two up to SYNTH_LOWAT_MAX.  Woken as each burst landed, it read about
 * 100 KiB a time and answered each read with a window update, which the
 * sender handles under its socket's lock: one loopback upload made 41-42
 * Gb/s against iperf3's 48-50, whose receiver copies what it reads and so
 * wakes half as often.  A mark of 64 KiB gave 37-41 Gb/s, 256 KiB 48-50,
 * 512 KiB 50, 1 MiB 55-56, and 2 or 4 MiB no more; but four download
 * streams fell from 1.34-1.46 of iperf3's at 512 KiB to 0.73-0.80 at
 * 1 MiB, most likely because the kernel clamps a socket's window to the
 * mark when the mark raises its buffer (tcp_set_rcvlowat), and a reader
 * woken only for a whole window stalls its sender.  Tied to the stream's
 * rate, a slow stream is read as often as it was.
 */
#define SYNTH_LOWAT_MAX		(512U << 10)
#define SYNTH_LOWAT_MIN		(4U << 10)	/* below it, any byte wakes */
#define SYNTH_LOWAT_MS		2

enum synth_pattern {
	SYNTH_PATTERN_ZERO,
	SYNTH_PATTERN_RANDOM,
	SYNTH_PATTERN_MIXED
};

/* The pattern named s ("zero", "random", "mixed"); -1 when unknown. */
int		 synth_pattern_parse(const char *s, enum synth_pattern *p);
/* The name of a pattern, a static string. */
const char	*synth_pattern_name(enum synth_pattern);
/*
 * Fill period (len bytes, the caller's: a multiple of SYNTH_PATTERN_BLOCK,
 * at most SYNTH_PATTERN_PERIOD) with the pattern.
 */
void		 synth_pattern_fill(enum synth_pattern, uint64_t seed,
		    unsigned char *period, size_t len);
/*
 * Repeat the period of len bytes after itself for more bytes (the caller
 * has room for len + more), so that a read of up to more bytes from any
 * offset under len is the stream's, in one piece.
 */
void		 synth_pattern_extend(unsigned char *period, size_t len,
		    size_t more);
/*
 * Compare n bytes of buf, found at stream offset off, with the period of
 * len bytes; the index in buf of the first byte that differs, or n when
 * all match.
 */
size_t		 synth_pattern_check(const unsigned char *period, size_t len,
		    uint64_t off, const unsigned char *buf, size_t n);

/*
 * The low-water mark for a stream that has moved `moved` bytes in secs
 * seconds and has `left` bytes still to come (UINT64_MAX: until it ends):
 * never more than left, and 1 (any byte) for a slow or new stream.
 */
int		 synth_lowat(uint64_t moved, double secs, uint64_t left);

#endif /* SYNTH_PATTERN_H */
