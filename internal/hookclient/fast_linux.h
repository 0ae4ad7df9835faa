// Shared by the fast path's data (fast_data_linux.s) and code
// (fast_linux_<arch>.s): the constants of the protocol, the socket API and
// the limits. The values are the same on every Linux architecture the fast
// path exists for (asm-generic and x86-64 agree on all of them).

#define EINTR 4
#define AF_UNIX 1
#define SOCK_STREAM_CLOEXEC 0x80001
#define SOL_SOCKET 1
#define SCM_RIGHTS 1
#define SO_RCVTIMEO 20
#define SO_SNDTIMEO 21
#define MSG_NOSIGNAL 0x4000

// Outcomes handed to the Go front (fastOutcome, see client_unix.go).
#define RUN_HERE 1
#define NO_ANSWER 2
#define STOPPED 3

// The request buffer; a request that does not fit (a huge environment)
// is left to the Go front.
#define REQSIZE 262144
#define MAXSOCK 103
// Repeated keys are found by comparing each entry with those before it;
// an environment of more entries is left to the Go front (a map).
#define MAXENV 4096
// ... and while it compares at most this many bytes in all, so a crafted
// environment cannot make it slow either.
#define DUPBUDGET 4194304
#define NIGNORED 10
