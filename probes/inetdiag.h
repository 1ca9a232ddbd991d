/*
 * inetdiag.h: TCP connections and their tcp_info, from sock_diag.
 *
 * One NETLINK_SOCK_DIAG dump per address family (SOCK_DIAG_BY_FAMILY with
 * struct inet_diag_req_v2, Linux 3.3 and later) lists the TCP sockets of
 * this network namespace with the kernel's tcp_info of each; any user may
 * dump them all, root or not.  The sockets whose local port is one of a
 * set and whose peer is a given address are kept: the filter runs here,
 * simpler than inet_diag's bytecode and the same on every kernel.  Sockets
 * that match are few, so a dump allocates little.  struct tcp_info only
 * ever grows: the length of the attribute says
 * which fields this kernel has (3.10 stops at tcpi_total_retrans, 104
 * bytes; the byte counts came in 4.1, the delivery rate in 4.9, the busy
 * and limited times in 4.10, snd_wnd in 5.4), and each connection's have
 * bits say which were filled.  Nothing is read past the fields the
 * kernel gave.
 */
#ifndef INETDIAG_H
#define INETDIAG_H

#include <netinet/in.h>

#include <stddef.h>
#include <stdint.h>

/* The kernel's TCP states (include/net/tcp_states.h) that a dump asks for. */
#define INETDIAG_ESTABLISHED	1
#define INETDIAG_FIN_WAIT1	4
#define INETDIAG_FIN_WAIT2	5
#define INETDIAG_CLOSE_WAIT	8
#define INETDIAG_LAST_ACK	9
#define INETDIAG_CLOSING	11

/* Which groups of tcp_info fields a connection has (struct inetdiag_conn). */
#define INETDIAG_HAVE_RTT	0x01	/* rtt, cwnd, retrans: every kernel */
#define INETDIAG_HAVE_BYTES	0x02	/* bytes_acked, bytes_received: 4.1 */
#define INETDIAG_HAVE_DELIVERY	0x04	/* delivery_rate: 4.9 */
#define INETDIAG_HAVE_BUSY	0x08	/* busy, rwnd/sndbuf limited: 4.10 */
#define INETDIAG_HAVE_SNDWND	0x10	/* snd_wnd: 5.4 */

/* The length of 3.10's struct tcp_info, which ends at tcpi_total_retrans. */
#define INETDIAG_INFO_LEN_310	104

/*
 * One socket.  The counters are the kernel's since the connection opened;
 * the SYN and the FIN take a sequence number each, so bytes_acked counts
 * one more for the SYN on the side that connected, and one more for its
 * FIN once acknowledged; bytes_received one more once the peer's FIN came.
 */
struct inetdiag_conn {
	int		family;		/* of the socket: AF_INET, AF_INET6 */
	char		local[INET6_ADDRSTRLEN];  /* IPv4-mapped as IPv4 */
	unsigned	lport;
	char		remote[INET6_ADDRSTRLEN];
	unsigned	rport;
	uint64_t	inode;		/* 0: no socket inode (a kernel socket,
					   a FIN_WAIT2 time-wait one) */
	uint32_t	uid;
	int		state;		/* INETDIAG_ESTABLISHED... */
	unsigned	have;		/* INETDIAG_HAVE_*; 0: no tcp_info */
	size_t		info_len;	/* bytes of tcp_info the kernel gave */
	uint32_t	rtt_us, rttvar_us;	/* smoothed round trip */
	uint32_t	total_retrans;	/* segments retransmitted */
	uint32_t	snd_cwnd;	/* segments */
	uint32_t	rcv_space;	/* bytes: the receive window's goal */
	uint64_t	bytes_acked;	/* sent and acknowledged */
	uint64_t	bytes_received;	/* received in order */
	uint64_t	delivery_rate;	/* bytes/s, the kernel's estimate */
	uint64_t	busy_time_us;	/* with data to send; jiffy steps */
	uint64_t	rwnd_limited_us;	/* held by the peer's window */
	uint64_t	sndbuf_limited_us;	/* held by our send buffer */
	uint32_t	snd_wnd;	/* bytes: the peer's window */
};

/* The connections of one dump; zero it before the first use. */
struct inetdiag {
	struct inetdiag_conn	*v;
	size_t			 n, cap;
	size_t			 info_len_seen;	/* largest info_len appended
						   since inetdiag_read() or
						   _clear() emptied d */
	const char		*errstr;	/* static, after -1; or NULL */
};

/*
 * Dump the live TCP sockets in a connected state (ESTABLISHED to CLOSING,
 * not TIME_WAIT) whose local port is one of ports (nports 0: any port)
 * and, when peer is not NULL, whose remote address is peer (IPv4 or IPv6
 * text; an IPv4-mapped address equals its IPv4), into d, emptied first.
 * -1 with errno and d->errstr: EINVAL a bad peer, ENOENT no sock_diag or
 * no tcp_diag in this kernel (its NLMSG_ERROR), or another errno the
 * kernel answered.
 */
int	inetdiag_read(struct inetdiag *d, const unsigned *ports,
	    size_t nports, const char *peer);
/*
 * Parse len bytes of netlink messages as one recv(2) of a dump gives
 * them, appending the sockets that match as inetdiag_read() does; *done
 * is set at NLMSG_DONE.  Pure, alignment-safe, and reads nothing past
 * buf + len.  -1 with errno and d->errstr: EINVAL a malformed message or
 * peer, ENOMEM, or the errno of an NLMSG_ERROR or of a failed dump.
 */
int	inetdiag_parse(struct inetdiag *d, const void *buf, size_t len,
	    const unsigned *ports, size_t nports, const char *peer, int *done);
/* Free the connections; d may be reused. */
void	inetdiag_clear(struct inetdiag *d);

#endif /* INETDIAG_H */
