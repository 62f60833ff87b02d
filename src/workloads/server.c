// SPDX-License-Identifier: MIT
/*
 * server: a TCP request/response service on 127.0.0.1 (one epoll loop) and its
 * own load generator (one epoll loop over conns connections), every request's
 * latency in a log-linear histogram: a closed loop, as wrk and memtier drive
 * theirs, or with rate= an open one at a fixed rate, as wrk2 does (openloop.h).
 *
 * Why one event loop and not a thread or a process per connection: a closed
 * loop of conns connections needs conns requests in flight, not conns tasks; on
 * a machine of 2 CPUs, conns threads would measure the scheduler's wake-ups
 * more than the service, and their number would change what a monitor that
 * follows tasks pays.  The generator's own work per request is then the same
 * whatever conns is: one epoll_wait share, one send, one recv.  The service is
 * a process of its own (forked, or alone with role=serve), as a real one is, so
 * a monitor can be pointed at its pid.
 *
 * Check (check=ok|bad, load generator): every byte of every reply is what the
 * request asked for (its sequence number, then the pattern), and with
 * role=both the service says it served every request sent; role=serve alone
 * reports no check (the load generator checks what it served).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "stats/hist.h"
#include "workloads/openloop.h"
#include "workloads/process.h"
#include "workloads/timed.h"
#include "workloads/workload.h"

/*
 * The protocol.  A request is 16 bytes in host order (both ends are on this
 * machine): a sequence number, the reply's size and the ns of work to do
 * first.  The reply is size bytes: the request's sequence number in its first
 * min(size, 8) bytes, then reply_byte(i) at each offset i.  The load generator
 * checks every byte.  The load generator says what to do, so a server started
 * alone (role=serve) needs no parameters but its port.
 */
struct request {
	uint64_t seq;
	uint32_t size;
	uint32_t work_ns;
};

#define SIZE_MAX_BYTES (1u << 20)
#define WORK_MAX_NS 10000000u
#define EVENTS 64
/* Warm-up requests are numbered from here: never a timed request's number. */
#define WARMUP_SEQ (1ULL << 63)

enum { ROLE_BOTH, ROLE_SERVE, ROLE_LOAD };

static unsigned char reply_byte(size_t i)
{
	return (unsigned char)(i * 7 + 1);
}

/* The reply to request seq, into buf (size bytes). */
static void reply_fill(unsigned char *buf, size_t size, uint64_t seq)
{
	size_t k = size < sizeof(seq) ? size : sizeof(seq);

	for (size_t i = k; i < size; i++)
		buf[i] = reply_byte(i);
	memcpy(buf, &seq, k);
}

static int nodelay(int fd)
{
	int one = 1;

	/* Small requests and replies go out at once (no Nagle, no delayed-ACK stalls). */
	return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/*
 * Room for want descriptors: the soft limit raised towards the hard one.  Less
 * than want is an error (said) when must, else as many as the hard limit allows.
 */
static int files_for(uint64_t want, bool must)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= want)
		return 0;
	if (rl.rlim_max < want && must)
		return error("server: %llu connections need %llu open files, the limit is %llu "
			     "(raise ulimit -n)",
			     (unsigned long long)want - 16, (unsigned long long)want,
			     (unsigned long long)rl.rlim_max),
		       -EMFILE;
	rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
	return setrlimit(RLIMIT_NOFILE, &rl) < 0 ? -errno : 0;
}

/* ---- the service -------------------------------------------------------------------- */

enum { EV_LISTEN, EV_STOP, EV_CONN };

struct sconn {
	int kind, fd;
	struct request req;
	size_t inlen;
	uint64_t seq; /* the reply in flight: its first bytes */
	size_t outlen, outoff;
	struct service *s;
	struct sconn *prev, *next;
};

/*
 * Every reply is the same pattern but for its first 8 bytes: one buffer of
 * the largest size asked serves all connections, so what a connection holds
 * does not grow with the size a client asks for.
 */
struct service {
	int ep;
	struct sconn listen, stop; /* stop: the parent's socket (EOF), or a signalfd */
	struct sconn *conns;
	unsigned char *pattern;
	size_t patlen;
	uint64_t served, accepted;
};

static int watch(struct service *s, struct sconn *c, int op, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = c };

	return epoll_ctl(s->ep, op, c->fd, &ev) < 0 ? -errno : 0;
}

static void conn_close(struct service *s, struct sconn *c)
{
	close(c->fd);
	if (c->prev)
		c->prev->next = c->next;
	else
		s->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	free(c);
}

/* Accept every pending connection; -errno when accept fails for want of files. */
static int conn_accept(struct service *s)
{
	for (;;) {
		int fd = accept4(s->listen.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct sconn *c;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EAGAIN)
				return 0;
			return error("server: could not accept a connection: %s", strerror(errno)),
			       -errno;
		}
		nodelay(fd);
		c = xcalloc(1, sizeof(*c));
		c->kind = EV_CONN;
		c->fd = fd;
		c->s = s;
		c->next = s->conns;
		if (c->next)
			c->next->prev = c;
		s->conns = c;
		s->accepted++;
		if (watch(s, c, EPOLL_CTL_ADD, EPOLLIN) < 0)
			conn_close(s, c);
	}
}

/* Send what is left of the reply: 1 when it is all out, 0 when the socket is full, -1. */
static int conn_flush(struct sconn *c)
{
	size_t k = c->outlen < sizeof(c->seq) ? c->outlen : sizeof(c->seq);

	while (c->outoff < c->outlen) {
		size_t from = c->outoff < k ? k : c->outoff;
		struct iovec iov[2];
		struct msghdr msg = { .msg_iov = iov };
		ssize_t n;

		/* What is left of the sequence number, then of the shared pattern. */
		if (c->outoff < k)
			iov[msg.msg_iovlen++] =
				(struct iovec){ (char *)&c->seq + c->outoff, k - c->outoff };
		iov[msg.msg_iovlen++] = (struct iovec){ c->s->pattern + from, c->outlen - from };
		n = sendmsg(c->fd, &msg, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN ? 0 : -1;
		c->outoff += (size_t)n;
	}
	return 1;
}

/* A whole request: the work, then the reply.  -1 closes the connection (a bad request). */
static int conn_answer(struct service *s, struct sconn *c)
{
	const struct request *r = &c->req;
	int rc;

	c->inlen = 0;
	if (!r->size || r->size > SIZE_MAX_BYTES || r->work_ns > WORK_MAX_NS)
		return -1;
	if (r->size > s->patlen) {
		s->pattern = xrealloc(s->pattern, r->size);
		s->patlen = r->size;
		reply_fill(s->pattern, r->size, 0);
	}
	pcost_wl_spin_ns(r->work_ns);
	c->seq = r->seq;
	c->outlen = r->size;
	c->outoff = 0;
	s->served++;
	rc = conn_flush(c);
	if (rc == 0)
		return watch(s, c, EPOLL_CTL_MOD, EPOLLOUT);
	return rc < 0 ? -1 : 0;
}

/* Readable or writable: finish the reply in flight, then read and answer requests. */
static void conn_event(struct service *s, struct sconn *c)
{
	if (c->outoff < c->outlen) {
		int rc = conn_flush(c);

		if (rc < 0 || (rc == 1 && watch(s, c, EPOLL_CTL_MOD, EPOLLIN) < 0))
			goto close;
		if (rc == 0)
			return;
	}
	for (;;) {
		ssize_t n = recv(c->fd, (char *)&c->req + c->inlen, sizeof(c->req) - c->inlen, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0)
			goto close; /* the peer closed, or reset */
		c->inlen += (size_t)n;
		if (c->inlen < sizeof(c->req))
			continue;
		if (conn_answer(s, c) < 0)
			goto close;
		if (c->outoff < c->outlen)
			return; /* wait for EPOLLOUT before reading more */
	}
close:
	conn_close(s, c);
}

/* Serve until the stop descriptor is readable; 0, or -errno with an error said. */
static int service_loop(struct service *s)
{
	struct epoll_event ev[EVENTS];

	for (;;) {
		int n = epoll_wait(s->ep, ev, EVENTS, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error("server: epoll_wait: %s", strerror(errno)), -errno;
		for (int i = 0; i < n; i++) {
			struct sconn *c = ev[i].data.ptr;
			int rc;

			if (c->kind == EV_STOP)
				return 0;
			if (c->kind == EV_LISTEN && (rc = conn_accept(s)) < 0)
				return rc;
			if (c->kind == EV_CONN)
				conn_event(s, c);
		}
	}
}

/* The epoll set of a service on listening socket lfd, stopped by stopfd. */
static int service_init(struct service *s, int lfd, int stopfd)
{
	memset(s, 0, sizeof(*s));
	s->listen = (struct sconn){ .kind = EV_LISTEN, .fd = lfd };
	s->stop = (struct sconn){ .kind = EV_STOP, .fd = stopfd };
	s->ep = epoll_create1(EPOLL_CLOEXEC);
	if (s->ep < 0 || watch(s, &s->listen, EPOLL_CTL_ADD, EPOLLIN) < 0 ||
	    watch(s, &s->stop, EPOLL_CTL_ADD, EPOLLIN) < 0)
		return error("server: could not set up epoll: %s", strerror(errno)), -errno;
	return 0;
}

static void service_release(struct service *s)
{
	while (s->conns)
		conn_close(s, s->conns);
	free(s->pattern);
	if (s->ep >= 0)
		close(s->ep);
}

/* A listening socket on 127.0.0.1:port (0: one the kernel picks); *bound gets the port. */
static int listen_on(unsigned port, unsigned *bound)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	socklen_t len = sizeof(a);
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return error("server: could not create a socket: %s", strerror(errno)), -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 1024) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0) {
		int e = errno;

		close(fd);
		return error("server: could not listen on 127.0.0.1:%u: %s", port, strerror(e)), -e;
	}
	*bound = ntohs(a.sin_port);
	return fd;
}

/* role=both: the forked service.  Ready byte, serve until the parent shuts its side, answer count.
 */
static noreturn void service_child(int lfd, int ctl, pid_t parent)
{
	struct service s;
	int rc;

	/* A killed workload takes its service along (before the ready byte: not timed). */
	pcost_child_die_with_parent(parent);
	pcost_wl_name_self("server");
	rc = service_init(&s, lfd, ctl);
	if (!rc)
		rc = pcost_write_full(ctl, "R", 1);
	if (!rc)
		rc = service_loop(&s);
	if (!rc)
		rc = pcost_write_full(ctl, &s.served, sizeof(s.served));
	_exit(rc ? 1 : 0);
}

/* role=serve: this process is the service, until SIGTERM, SIGINT or SIGHUP. */
static int serve_alone(unsigned port, struct pcost_wl_result *res)
{
	struct service s = { .ep = -1 };
	struct signalfd_siginfo si;
	sigset_t sigs, old;
	pcost_ns t0;
	int lfd, sfd = -1, rc;

	if ((lfd = listen_on(port, &port)) < 0)
		return lfd;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &sigs, &old);
	sfd = signalfd(-1, &sigs, SFD_NONBLOCK | SFD_CLOEXEC);
	rc = sfd < 0 ? (error("server: signalfd: %s", strerror(errno)), -errno)
		     : service_init(&s, lfd, sfd);
	if (!rc) {
		/* The one line a --service ready regex waits for. */
		printf("listening on 127.0.0.1:%u\n", port);
		fflush(stdout);
		t0 = pcost_now_ns();
		rc = service_loop(&s);
		res->timed_ns = pcost_now_ns() - t0;
		/* Take the signal, or it ends the process when unblocked below. */
		if (read(sfd, &si, sizeof(si)) < 0)
			(void)0; /* none pending: service_loop failed */
		res->events = s.served;
		snprintf(res->extra, sizeof(res->extra), " port=%u accepted=%llu", port,
			 (unsigned long long)s.accepted);
	}
	service_release(&s);
	if (sfd >= 0)
		close(sfd);
	close(lfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* ---- the load generator ------------------------------------------------------------- */

struct cconn {
	int fd;
	uint64_t seq;
	pcost_ns t0;
	size_t got;
	unsigned char *buf;
};

struct load {
	struct cconn *c;
	unsigned n;
	uint64_t requests, sent, done, bad;
	uint32_t size, work;
	uint64_t rate; /* requests a second (open loop), 0: closed loop */
	enum pcost_ol_dist dist;
	pcost_ns open_ns;      /* the open loop's timed region */
	unsigned char *expect; /* a reply's bytes past the sequence number */
	struct pcost_hist *hist;
	int ep;
};

static int send_request(const struct load *l, struct cconn *c, uint64_t seq)
{
	struct request r = { .seq = seq, .size = l->size, .work_ns = l->work };
	ssize_t n;

	c->seq = seq;
	c->got = 0;
	c->t0 = pcost_now_ns();
	do
		n = send(c->fd, &r, sizeof(r), MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	/* One request in flight per connection: the socket always has room for 16 bytes. */
	if (n != (ssize_t)sizeof(r))
		return error("server: could not send a request: %s",
			     n < 0 ? strerror(errno) : "short send"),
		       -EPIPE;
	return 0;
}

/* Read what has come of c's reply: 1 when it is whole, 0 when more is to come, -errno. */
static int recv_reply(const struct load *l, struct cconn *c)
{
	while (c->got < l->size) {
		ssize_t n = recv(c->fd, c->buf + c->got, l->size - c->got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			return error("server: the service %s a connection after %llu replies",
				     n ? "reset" : "closed", (unsigned long long)l->done),
			       -EPIPE;
		c->got += (size_t)n;
	}
	return 1;
}

static bool reply_right(const struct load *l, const struct cconn *c)
{
	size_t k = l->size < sizeof(c->seq) ? l->size : sizeof(c->seq);

	return !memcmp(c->buf, &c->seq, k) && !memcmp(c->buf + k, l->expect + k, l->size - k);
}

/* Connect every connection and make one untimed round trip on each (accepted, warm). */
static int load_connect(struct load *l, unsigned port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (unsigned i = 0; i < l->n; i++) {
		struct cconn *c = &l->c[i];
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
		int rc;

		c->buf = xmalloc(l->size);
		c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&a, sizeof(a)) < 0)
			return error("server: could not connect to 127.0.0.1:%u: %s", port,
				     strerror(errno)),
			       -errno;
		nodelay(c->fd);
		if ((rc = send_request(l, c, WARMUP_SEQ + i)) < 0)
			return rc;
		while ((rc = recv_reply(l, c)) == 0)
			; /* a blocking socket still */
		if (rc < 0)
			return rc;
		if (!reply_right(l, c))
			l->bad++;
		if (fcntl(c->fd, F_SETFL, O_NONBLOCK) < 0 ||
		    epoll_ctl(l->ep, EPOLL_CTL_ADD, c->fd, &ev) < 0)
			return error("server: could not watch a connection: %s", strerror(errno)),
			       -errno;
	}
	return 0;
}

/* The timed region: requests over n connections, each sent when the last one's reply is whole. */
static int load_timed(struct load *l, pcost_ns *timed)
{
	struct epoll_event ev[EVENTS];
	pcost_ns t0 = pcost_now_ns();
	int rc = 0;

	for (unsigned i = 0; i < l->n && l->sent < l->requests && !rc; i++)
		rc = send_request(l, &l->c[i], l->sent++);
	while (!rc && l->done < l->requests) {
		int n = epoll_wait(l->ep, ev, EVENTS, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error("server: epoll_wait: %s", strerror(errno)), -errno;
		for (int i = 0; i < n && !rc; i++) {
			struct cconn *c = ev[i].data.ptr;

			if ((rc = recv_reply(l, c)) <= 0)
				continue;
			rc = 0;
			pcost_hist_record(l->hist, pcost_now_ns() - c->t0);
			if (!reply_right(l, c))
				l->bad++;
			l->done++;
			if (l->sent < l->requests)
				rc = send_request(l, c, l->sent++);
		}
	}
	*timed = pcost_now_ns() - t0;
	return rc;
}

/* The open loop's protocol hooks: the closed loop's send and receive, the reply checked. */
static int open_send(void *arg, unsigned i, uint64_t seq)
{
	struct load *l = arg;

	l->sent++;
	return send_request(l, &l->c[i], seq);
}

static int open_recv(void *arg, unsigned i)
{
	struct load *l = arg;
	int rc = recv_reply(l, &l->c[i]);

	if (rc == 1) {
		if (!reply_right(l, &l->c[i]))
			l->bad++;
		l->done++;
	}
	return rc;
}

/* The timed region of rate=: requests on a fixed schedule over the n connections. */
static int load_open(struct load *l, pcost_ns *timed)
{
	int *fd = xcalloc(l->n, sizeof(*fd));
	struct pcost_openloop o = { .rate = (double)l->rate,
				    .dist = l->dist,
				    .requests = l->requests,
				    .conns = l->n,
				    .fd = fd,
				    .send = open_send,
				    .recv = open_recv,
				    .arg = l,
				    .hist = l->hist };
	int rc;

	for (unsigned i = 0; i < l->n; i++)
		fd[i] = l->c[i].fd;
	rc = pcost_openloop_run(&o);
	*timed = o.timed_ns;
	free(fd);
	return rc;
}

static void load_release(struct load *l)
{
	for (unsigned i = 0; i < l->n; i++) {
		if (l->c[i].fd >= 0)
			close(l->c[i].fd);
		free(l->c[i].buf);
	}
	if (l->ep >= 0)
		close(l->ep);
	free(l->c);
	free(l->expect);
	free(l->hist);
}

/* The facts: throughput and latency quantiles (the open loop's: and its rate), and the check. */
static void load_report(const struct load *l, struct pcost_wl_result *res)
{
	res->events = l->done;
	pcost_load_facts(l->hist, l->done, res->timed_ns, l->rate, l->dist, res->extra,
			 sizeof(res->extra));
	pcost_wl_check(res, !l->bad, "%llu of %llu replies were wrong or not served",
		       (unsigned long long)l->bad, (unsigned long long)l->requests + l->n);
}

static void load_init(struct load *l, const struct pcost_params *p)
{
	memset(l, 0, sizeof(*l));
	l->n = (unsigned)pcost_param_get(p, "conns");
	l->requests = pcost_param_get(p, "requests");
	l->size = (uint32_t)pcost_param_get(p, "size");
	l->work = (uint32_t)pcost_param_get(p, "work");
	l->rate = pcost_param_get(p, "rate");
	l->dist = (enum pcost_ol_dist)pcost_param_get(p, "dist");
	l->c = xcalloc(l->n, sizeof(*l->c));
	for (unsigned i = 0; i < l->n; i++)
		l->c[i].fd = -1;
	l->expect = xmalloc(l->size);
	reply_fill(l->expect, l->size, 0);
	l->hist = xmalloc(sizeof(*l->hist));
	pcost_hist_init(l->hist);
	l->ep = epoll_create1(EPOLL_CLOEXEC);
}

/* Connect, warm up, time the requests: 0 or -errno (an error said). */
static int load_run(struct load *l, unsigned port, struct pcost_wl_result *res)
{
	int rc;

	if (l->ep < 0)
		return error("server: epoll_create1: %s", strerror(errno)), -errno;
	rc = load_connect(l, port);
	if (!rc)
		rc = l->rate ? load_open(l, &res->timed_ns) : load_timed(l, &res->timed_ns);
	for (unsigned i = 0; i < l->n; i++) {
		if (l->c[i].fd >= 0)
			close(l->c[i].fd);
		l->c[i].fd = -1;
	}
	return rc;
}

/* role=both: fork the service, then load it; the service answered every request exactly once. */
static int both(struct load *l, unsigned port, struct pcost_wl_result *res)
{
	int ctl[2], lfd, rc;
	uint64_t served = 0;
	pid_t parent = getpid(), pid;
	char c;

	if ((lfd = listen_on(port, &port)) < 0)
		return lfd;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ctl) < 0) {
		close(lfd);
		return error("server: socketpair: %s", strerror(errno)), -errno;
	}
	pid = fork();
	if (pid < 0) {
		close(lfd);
		return error("server: could not fork the service: %s", strerror(errno)), -errno;
	}
	if (pid == 0) {
		close(ctl[0]);
		service_child(lfd, ctl[1], parent);
	}
	close(lfd);
	close(ctl[1]);
	rc = pcost_read_full(ctl[0], &c, 1);
	if (rc < 0)
		error("server: the service did not start");
	if (!rc)
		rc = load_run(l, port, res);
	/* Its side shut: the service answers with the number of requests it served, and ends. */
	if (!rc &&
	    (shutdown(ctl[0], SHUT_WR) < 0 || pcost_read_full(ctl[0], &served, sizeof(served)) < 0))
		rc = (error("server: the service ended before it said how many requests it "
			    "served"),
		      -EPIPE);
	close(ctl[0]);
	if (rc)
		kill(pid, SIGKILL);
	if (pcost_wl_reap(pid, "the server's service process") < 0 && !rc)
		rc = -ECHILD;
	if (!rc && served != l->requests + l->n) {
		error("server: the service served %llu requests, the load generator sent %llu",
		      (unsigned long long)served, (unsigned long long)l->requests + l->n);
		l->bad++;
	}
	return rc;
}

extern const struct pcost_workload pcost_wl_server;

static int server_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	unsigned role = (unsigned)pcost_param_get(p, "role"),
		 port = (unsigned)pcost_param_get(p, "port");
	struct load l;
	int rc;

	if (role == ROLE_SERVE)
		return files_for(65536, false), serve_alone(port, res);
	if ((rc = files_for(pcost_param_get(p, "conns") + 16, true)) < 0)
		return rc;
	load_init(&l, p);
	pcost_wl_name_self(role == ROLE_BOTH ? "server-load" : "load");
	rc = role == ROLE_BOTH ? both(&l, port, res) : load_run(&l, port, res);
	/* A bad check: the facts still go out (check=bad) and the run fails (cmd-workload.c). */
	if (!rc)
		load_report(&l, res);
	load_release(&l);
	return rc;
}

static int server_check_params(const struct pcost_params *p, char *err, size_t len)
{
	unsigned role = (unsigned)pcost_param_get(p, "role");

	if (role == ROLE_LOAD && !pcost_param_get(p, "port")) {
		snprintf(err, len, "role=load needs port=N, the port that role=serve printed");
		return -EINVAL;
	}
	if (role == ROLE_SERVE && pcost_param_get(p, "rate")) {
		snprintf(err, len, "rate= is the load generator's: give it with role=load or both");
		return -EINVAL;
	}
	if (p->given[pcost_param_index(p->wl, "dist")] && !pcost_param_get(p, "rate")) {
		snprintf(err, len, "dist= spaces an open loop's requests: give rate=R with it");
		return -EINVAL;
	}
	return 0;
}

static const struct pcost_param_desc server_params[] = {
	{ "role", PCOST_PARAM_ENUM, ROLE_BOTH, 0, 0, "both|serve|load",
	  "service and load generator; the service alone (prints its port, ends on SIGTERM); "
	  "the load generator alone (needs port=)" },
	{ "conns", PCOST_PARAM_U64, 4, 1, 1000, NULL,
	  "connections, one request in flight on each" },
	{ "requests", PCOST_PARAM_U64, 20000, 1, 1000000000ULL, NULL, "requests in all (timed)" },
	{ "work", PCOST_PARAM_U64, 2000, 0, WORK_MAX_NS, NULL,
	  "ns the service spins per request (sent with each request)" },
	{ "size", PCOST_PARAM_U64, 128, 1, SIZE_MAX_BYTES, NULL,
	  "bytes of each reply (sent with each request)" },
	{ "port", PCOST_PARAM_U64, 0, 0, 65535, NULL,
	  "TCP port on 127.0.0.1 (0: one the kernel picks)" },
	{ "rate", PCOST_PARAM_U64, 0, 0, PCOST_OL_RATE_MAX, NULL,
	  "open loop: requests a second on a fixed schedule, latency from each one's due time "
	  "(0: closed loop)" },
	{ "dist", PCOST_PARAM_ENUM, PCOST_OL_UNIFORM, 0, 0, PCOST_OL_DIST_CHOICES,
	  "the open loop's spacing: even, or Poisson arrivals" },
	{ 0 },
};

/* What `run` analyses of each run, with intervals and each monitor's change. */
static const struct pcost_wl_figure server_figures[] = {
	{ "throughput", "req/s", +1, NULL }, { "p50_us", "us", -1, NULL },
	{ "p99_us", "us", -1, NULL },	     { "p999_us", "us", -1, NULL },
	{ "max_us", "us", -1, "rate" },	     { NULL, NULL, 0, NULL },
};

const struct pcost_workload pcost_wl_server = {
	.name = "server",
	.summary = "TCP loopback request/response service (epoll) and its load generator, "
		   "closed loop or at a fixed rate; latency quantiles",
	.unit = "request",
	.size_key = "requests",
	.params = server_params,
	.run = server_run,
	.check_params = server_check_params,
	.figures = server_figures,
	.quiet = "rate,dist",
};
