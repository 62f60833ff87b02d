// SPDX-License-Identifier: MIT
/*
 * http: an open-loop HTTP/1.1 load generator for a service you run (nginx,
 * your own): GET url at rate requests a second over conns keep-alive
 * connections, latency from each request's due time (openloop.h), after wrk2.
 *
 * Plain sockets, no library: one request in flight on a connection (no
 * pipelining), a reply read by its Content-Length (a chunked reply is refused:
 * point it at a static file or a fixed page).  A reply that says
 * "Connection: close" (nginx after keepalive_requests) is read whole, then the
 * connection is made again; that connect counts in the next request's latency,
 * as it would for a real client.
 *
 * Check (check=ok|bad): every reply is 2xx and as long as the first one (the
 * warm-up's), which a static file or a fixed page is.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "workloads/process.h"
#include "workloads/timed.h"
#include "workloads/openloop.h"
#include "workloads/workload.h"

#define HEAD_MAX 8192
#define DURATION_MAX 3600

struct hconn {
	int fd;
	char head[HEAD_MAX];
	size_t got;   /* bytes of head read */
	bool in_body; /* the head is whole; body_left bytes are to come */
	uint64_t body_left;
	uint64_t len; /* the reply's Content-Length */
	int status;
	bool close_after; /* "Connection: close" */
};

struct http {
	struct sockaddr_in addr;
	char host[80], req[PCOST_PARAM_TEXT_MAX + 160];
	size_t reqlen;
	unsigned n;
	struct hconn *c;
	int *fd;
	struct pcost_openloop *o;
	uint64_t want_len; /* the first reply's length: every reply's */
	bool have_len;
	uint64_t bad, replies;
	char why[160]; /* the first bad reply */
};

/* "http://HOST[:PORT][/PATH]", HOST an IPv4 address or localhost: 0, or -EINVAL with why. */
static int url_parse(struct http *h, const char *url, char *why, size_t len)
{
	const char *host = url + 7, *path, *colon;
	char name[64];
	unsigned long port = 80;
	size_t hn;

	if (strncmp(url, "http://", 7)) {
		snprintf(why, len, "url='%s' is not http://HOST[:PORT]/PATH (plain HTTP; no https)",
			 url);
		return -EINVAL;
	}
	path = host + strcspn(host, "/");
	colon = memchr(host, ':', (size_t)(path - host));
	hn = (size_t)((colon ? colon : path) - host);
	if (colon) {
		char *end;

		port = strtoul(colon + 1, &end, 10);
		if (end != path || end == colon + 1 || !port || port > 65535) {
			snprintf(why, len, "url='%s': the port is not a number 1-65535", url);
			return -EINVAL;
		}
	}
	snprintf(name, sizeof(name), "%.*s", (int)hn, host);
	memset(&h->addr, 0, sizeof(h->addr));
	h->addr.sin_family = AF_INET;
	h->addr.sin_port = htons((uint16_t)port);
	if (!strcmp(name, "localhost"))
		h->addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else if (hn >= sizeof(name) || inet_pton(AF_INET, name, &h->addr.sin_addr) != 1) {
		snprintf(why, len,
			 "url='%s': the host must be an IPv4 address or localhost (nothing is "
			 "looked up)",
			 url);
		return -EINVAL;
	}
	snprintf(h->host, sizeof(h->host), "%.*s", (int)(path - host), host);
	h->reqlen = (size_t)snprintf(h->req, sizeof(h->req),
				     "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: probecost\r\n\r\n",
				     *path ? path : "/", h->host);
	return 0;
}

static int http_check_params(const struct pcost_params *p, char *err, size_t len)
{
	struct http h;

	if (!p->given[pcost_param_index(p->wl, "url")] || !pcost_param_get(p, "rate")) {
		snprintf(err, len, "give url=http://HOST:PORT/PATH and rate=R (requests a second)");
		return -EINVAL;
	}
	return url_parse(&h, pcost_param_text(p, "url"), err, len);
}

static int conn_open(struct http *h, struct hconn *c, bool nonblock)
{
	int one = 1;

	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&h->addr, sizeof(h->addr)) < 0)
		return error("http: could not connect to %s: %s", h->host, strerror(errno)), -errno;
	/* Small requests go out at once (no Nagle, no delayed-ACK stalls). */
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (nonblock && fcntl(c->fd, F_SETFL, O_NONBLOCK) < 0)
		return error("http: fcntl: %s", strerror(errno)), -errno;
	return 0;
}

static int send_one(void *arg, unsigned i, uint64_t seq)
{
	struct http *h = arg;
	struct hconn *c = &h->c[i];
	ssize_t n;

	(void)seq;
	c->got = 0;
	c->in_body = false;
	do
		n = send(c->fd, h->req, h->reqlen, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	/* One request in flight: the socket has room for it. */
	if (n != (ssize_t)h->reqlen)
		return error("http: could not send a request to %s: %s", h->host,
			     n < 0 ? strerror(errno) : "short send"),
		       -EPIPE;
	return 0;
}

/* The value of header name in the head (lines after the status line), or NULL. */
static const char *header(const char *head, const char *name)
{
	size_t n = strlen(name);

	for (const char *l = strstr(head, "\r\n"); l; l = strstr(l, "\r\n")) {
		l += 2;
		if (!strncasecmp(l, name, n) && l[n] == ':')
			return l + n + 1 + strspn(l + n + 1, " \t");
	}
	return NULL;
}

static void bad_reply(struct http *h, const char *fmt, const char *what)
{
	if (!h->bad++)
		snprintf(h->why, sizeof(h->why), fmt, what);
}

/* The head is whole at its blank line (end bytes in): its status and length; 0 or -errno. */
static int head_parse(struct http *h, struct hconn *c, size_t end)
{
	const char *cl, *conn;
	char *stop;
	size_t extra = c->got - end;

	c->head[end - 2] = '\0'; /* keep the last header's \r\n for header() */
	if (sscanf(c->head, "HTTP/1.%*1d %3d", &c->status) != 1)
		return error("http: %s answered with no HTTP/1.x status line", h->host), -EPROTO;
	cl = header(c->head, "content-length");
	if (!cl) {
		return error("http: %s sent a reply without Content-Length (%s); point url= at a "
			     "static file or a fixed page",
			     h->host,
			     header(c->head, "transfer-encoding") ? "chunked" : "read to close"),
		       -EPROTO;
	}
	c->len = strtoull(cl, &stop, 10);
	if (stop == cl)
		return error("http: %s sent a Content-Length that is not a number", h->host),
		       -EPROTO;
	conn = header(c->head, "connection");
	c->close_after = conn && !strncasecmp(conn, "close", 5);
	/* One request in flight: nothing may come past its reply. */
	if (extra > c->len)
		return error("http: %s sent more than its reply's Content-Length", h->host),
		       -EPROTO;
	c->body_left = c->len - extra;
	c->in_body = true;
	return 0;
}

/* A whole reply on connection i: check it; make the connection again if the server closes it. */
static int reply_done(struct http *h, unsigned i)
{
	struct hconn *c = &h->c[i];
	char st[16];
	int rc;

	h->replies++;
	snprintf(st, sizeof(st), "%d", c->status);
	if (c->status < 200 || c->status > 299)
		bad_reply(h, "a reply had status %s", st);
	else if (h->have_len && c->len != h->want_len)
		bad_reply(h, "%s", "a reply's length differed from the first reply's");
	if (!h->have_len) {
		h->want_len = c->len;
		h->have_len = true;
	}
	if (!c->close_after)
		return 1;
	close(c->fd);
	if ((rc = conn_open(h, c, h->o != NULL)) < 0)
		return rc;
	if (h->o) {
		h->fd[i] = c->fd;
		if ((rc = pcost_openloop_rewatch(h->o, i)) < 0)
			return rc;
	}
	return 1;
}

static int recv_one(void *arg, unsigned i)
{
	struct http *h = arg;
	struct hconn *c = &h->c[i];
	/* Bodies are counted, not kept: one buffer for all (the generator has one thread). */
	static char sink[65536];

	for (;;) {
		char *to = c->in_body ? sink : c->head + c->got;
		size_t room = c->in_body
				      ? (c->body_left < sizeof(sink) ? c->body_left : sizeof(sink))
				      : sizeof(c->head) - 1 - c->got;
		ssize_t n;
		char *end;
		int rc;

		if (c->in_body && !c->body_left)
			return reply_done(h, i);
		if (!room)
			return error("http: %s sent a reply head over %d bytes", h->host, HEAD_MAX),
			       -EPROTO;
		n = recv(c->fd, to, room, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			return error("http: %s %s a connection after %llu replies", h->host,
				     n ? "reset" : "closed", (unsigned long long)h->replies),
			       -EPIPE;
		if (c->in_body) {
			c->body_left -= (uint64_t)n;
			continue;
		}
		c->got += (size_t)n;
		c->head[c->got] = '\0';
		if ((end = strstr(c->head, "\r\n\r\n")) &&
		    (rc = head_parse(h, c, (size_t)(end - c->head) + 4)) < 0)
			return rc;
	}
}

/* Connect every connection and make one untimed request on each (accepted, warm, checked). */
static int warm_up(struct http *h)
{
	for (unsigned i = 0; i < h->n; i++) {
		struct hconn *c = &h->c[i];
		int rc;

		if ((rc = conn_open(h, c, false)) < 0 || (rc = send_one(h, i, 0)) < 0)
			return rc;
		while ((rc = recv_one(h, i)) == 0)
			; /* a blocking socket still */
		if (rc < 0)
			return rc;
		if (fcntl(c->fd, F_SETFL, O_NONBLOCK) < 0)
			return error("http: fcntl: %s", strerror(errno)), -errno;
		h->fd[i] = c->fd;
	}
	return 0;
}

static int http_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	struct http h = { .n = (unsigned)pcost_param_get(p, "conns") };
	struct pcost_hist *hist = xmalloc(sizeof(*hist));
	struct pcost_openloop o = {
		.rate = (double)pcost_param_get(p, "rate"),
		.dist = (enum pcost_ol_dist)pcost_param_get(p, "dist"),
		.requests = pcost_param_get(p, "rate") * pcost_param_get(p, "duration"),
		.conns = h.n,
		.send = send_one,
		.recv = recv_one,
		.arg = &h,
		.hist = hist,
	};
	char why[256];
	int rc;

	pcost_wl_name_self("http");
	pcost_hist_init(hist);
	h.c = xcalloc(h.n, sizeof(*h.c));
	h.fd = xcalloc(h.n, sizeof(*h.fd));
	for (unsigned i = 0; i < h.n; i++)
		h.c[i].fd = -1;
	o.fd = h.fd;
	rc = url_parse(&h, pcost_param_text(p, "url"), why, sizeof(why));
	if (rc < 0)
		error("http: %s", why);
	if (!rc)
		rc = warm_up(&h);
	h.o = &o;
	if (!rc)
		rc = pcost_openloop_run(&o);
	if (!rc) {
		res->events = o.done;
		res->timed_ns = o.timed_ns;
		pcost_load_facts(hist, o.done, o.timed_ns, (uint64_t)o.rate, o.dist, res->extra,
				 sizeof(res->extra));
		pcost_wl_check(res, !h.bad, "%llu of %llu replies were wrong: %s",
			       (unsigned long long)h.bad, (unsigned long long)h.replies, h.why);
	}
	for (unsigned i = 0; i < h.n; i++)
		if (h.c[i].fd >= 0)
			close(h.c[i].fd);
	free(h.c);
	free(h.fd);
	free(hist);
	return rc;
}

static const struct pcost_param_desc http_params[] = {
	{ "url", PCOST_PARAM_TEXT, 0, 0, 0, NULL,
	  "http://HOST[:PORT]/PATH to GET, HOST an IPv4 address or localhost (required)" },
	{ "rate", PCOST_PARAM_U64, 0, 0, PCOST_OL_RATE_MAX, NULL,
	  "requests a second on a fixed schedule, latency from each one's due time (required)" },
	{ "conns", PCOST_PARAM_U64, 4, 1, 1000, NULL,
	  "keep-alive connections, one request in flight on each" },
	{ "dist", PCOST_PARAM_ENUM, PCOST_OL_UNIFORM, 0, 0, PCOST_OL_DIST_CHOICES,
	  "the spacing of the requests: even, or Poisson arrivals" },
	{ "duration", PCOST_PARAM_U64, 5, 1, DURATION_MAX, NULL,
	  "seconds of the schedule (rate x duration requests, timed)" },
	{ 0 },
};

static const struct pcost_wl_figure http_figures[] = {
	{ "throughput", "req/s", +1, NULL }, { "p50_us", "us", -1, NULL },
	{ "p99_us", "us", -1, NULL },	     { "p999_us", "us", -1, NULL },
	{ "max_us", "us", -1, NULL },	     { NULL, NULL, 0, NULL },
};

const struct pcost_workload pcost_wl_http = {
	.name = "http",
	.summary = "open-loop HTTP/1.1 GETs at a fixed rate to your service (keep-alive); "
		   "latency quantiles from each request's due time",
	.unit = "request",
	.size_key = "duration",
	.params = http_params,
	.run = http_run,
	.check_params = http_check_params,
	.figures = http_figures,
};
