//! The server's TCP listener. Each connection knows its client's address (for the
//! per-address limits on connections and failed authentication), and a request whose head
//! hyper cannot parse (a control character in a header value, headers too large, a URI too
//! long) is answered with a problem document carrying `x-request-id`, and logged, rather
//! than hyper's bare, bodiless 400. A connection refused before it is served (past its
//! address's share) is answered with a problem the same way ([`Connection::refuse`]).
//!
//! hyper answers such a head itself, before any service sees a request, and offers no hook
//! to shape that answer (hyperium/hyper#2590). So the connection's writer recognizes
//! hyper's automatic error head, the only head written without an `x-request-id` (every
//! response of the application carries one), and writes the problem in its place.

use crate::wire::ProblemCode;
use axum::serve::Listener;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// A TCP listener whose connections answer an unparsable request head with a problem.
pub(crate) struct ProblemListener {
    inner: TcpListener,
    problems_url: Arc<str>,
}

impl ProblemListener {
    /// `problems_url`: the base of problem `type` URIs (`{public_url}/problems`).
    pub(crate) fn new(inner: TcpListener, problems_url: Arc<str>) -> Self {
        Self {
            inner,
            problems_url,
        }
    }
}

impl Listener for ProblemListener {
    type Io = Connection;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (stream, peer) = Listener::accept(&mut self.inner).await;
        let connection = Connection {
            stream,
            peer,
            problems_url: self.problems_url.clone(),
            replacing: None,
        };
        (connection, peer)
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// The address of the client at the other end of a request's connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ClientAddr(pub(crate) SocketAddr);

/// One accepted connection.
pub(crate) struct Connection {
    stream: TcpStream,
    peer: SocketAddr,
    problems_url: Arc<str>,
    /// A problem being written in place of hyper's head: the bytes, how many are written,
    /// and the length of hyper's write it stands for.
    replacing: Option<Replacement>,
}

struct Replacement {
    bytes: Vec<u8>,
    written: usize,
    stands_for: usize,
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.replacing.is_none()
            && let Some(status) = hyper_error_status(buf)
        {
            this.replacing = Some(Replacement {
                bytes: problem_response(status, &this.problems_url, this.peer),
                written: 0,
                stands_for: buf.len(),
            });
        }
        let Some(replacement) = this.replacing.as_mut() else {
            return Pin::new(&mut this.stream).poll_write(cx, buf);
        };
        while replacement.written < replacement.bytes.len() {
            let rest = &replacement.bytes[replacement.written..];
            let n = ready!(Pin::new(&mut this.stream).poll_write(cx, rest))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            replacement.written += n;
        }
        // hyper closes the connection after its error head; anything it still writes is
        // swallowed so that the problem stays the whole answer.
        let stands_for = std::mem::take(&mut replacement.stands_for);
        Poll::Ready(Ok(if stands_for == 0 {
            buf.len()
        } else {
            stands_for
        }))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// The status of hyper's automatic answer to an unparsable request head, if `head` is
/// one: a bodiless 400, 414 or 431 without an `x-request-id`.
fn hyper_error_status(head: &[u8]) -> Option<u16> {
    let status = match head.get(..13)? {
        b"HTTP/1.1 400 " => 400,
        b"HTTP/1.1 414 " => 414,
        b"HTTP/1.1 431 " => 431,
        _ => return None,
    };
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")?;
    let text = std::str::from_utf8(&head[..end]).ok()?.to_ascii_lowercase();
    let bodiless = text.contains("\r\ncontent-length: 0");
    (bodiless && !text.contains("\r\nx-request-id:")).then_some(status)
}

/// The whole HTTP response standing for hyper's: a problem document, a new request ID,
/// and `connection: close` (hyper closes the connection after a head it cannot parse).
fn problem_response(status: u16, problems_url: &str, peer: SocketAddr) -> Vec<u8> {
    let (code, detail) = match status {
        414 => (
            ProblemCode::UriTooLong,
            "the request's URI is longer than the server reads",
        ),
        431 => (
            ProblemCode::HeadersTooLarge,
            "the request's headers are larger than the server reads",
        ),
        _ => (
            ProblemCode::BadRequest,
            "the request's head could not be parsed: a header name or value holds a \
             character HTTP does not allow (such as a control character), or the request \
             line is malformed",
        ),
    };
    let (request_id, response) = closing_problem(code, detail, None, problems_url);
    tracing::warn!(%peer, status, ms = "0.0", request_id = %request_id, "request head refused: {detail}");
    response
}

/// A whole HTTP response, closing its connection: the problem `code` with `detail` (and
/// `Retry-After`, when given) under a new request ID. The ID, and the bytes.
fn closing_problem(
    code: ProblemCode,
    detail: &str,
    retry_after_secs: Option<u64>,
    problems_url: &str,
) -> (String, Vec<u8>) {
    let request_id = uuid::Uuid::new_v4().to_string();
    let status = code.status();
    let problem = crate::wire::Problem {
        kind: format!("{problems_url}/{}", code.slug()),
        title: code.title().to_owned(),
        status,
        detail: detail.to_owned(),
        code: code.as_str().to_owned(),
        request_id: request_id.clone(),
        details: Vec::new(),
    };
    let body = serde_json::to_vec(&problem).unwrap_or_default();
    let retry_after = retry_after_secs
        .map(|secs| format!("retry-after: {secs}\r\n"))
        .unwrap_or_default();
    let mut response = format!(
        "HTTP/1.1 {status} {}\r\ncontent-type: application/problem+json\r\n\
         content-length: {}\r\n{}: {request_id}\r\n{retry_after}connection: close\r\n\r\n",
        problem.title,
        body.len(),
        super::REQUEST_ID_HEADER,
    )
    .into_bytes();
    response.extend_from_slice(&body);
    (request_id, response)
}

/// How long a refused connection is waited for, at most, to send its request head; and
/// then to read its answer.
const REFUSAL_LINGER: std::time::Duration = std::time::Duration::from_secs(1);

impl Connection {
    /// Answer the connection's first request with the problem `code`
    /// (`Retry-After: retry_after_secs`) without serving it, and close the connection.
    /// The answer waits for the request's head ([`REFUSAL_LINGER`] at most): a client
    /// answered before it sent its request takes the answer for a broken connection. Then
    /// what the client still sends is read and dropped until it closes too
    /// ([`REFUSAL_LINGER`] at most): a socket closed with unread bytes is reset, and the
    /// client would read the reset, not the answer.
    pub(crate) async fn refuse(mut self, code: ProblemCode, detail: &str, retry_after_secs: u64) {
        use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
        let (request_id, response) =
            closing_problem(code, detail, Some(retry_after_secs), &self.problems_url);
        tracing::warn!(
            peer = %self.peer,
            status = code.status(),
            request_id = %request_id,
            "connection refused: {detail}"
        );
        let stream = &mut self.stream;
        let _ = tokio::time::timeout(REFUSAL_LINGER, async {
            // The bytes read, and the last of them, where the head's end is looked for.
            let (mut read, mut tail, mut chunk) = (0, Vec::new(), [0u8; 4096]);
            while read < crate::limits::MAX_HEAD_BYTES {
                let n = match stream.read(&mut chunk).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                read += n;
                tail.extend_from_slice(&chunk[..n]);
                if tail.windows(4).any(|w| w == b"\r\n\r\n") {
                    break;
                }
                tail.drain(..tail.len().saturating_sub(3));
            }
        })
        .await;
        let answer = async move {
            stream.write_all(&response).await?;
            stream.shutdown().await?;
            let mut sink = [0u8; 4096];
            while stream.read(&mut sink).await? > 0 {}
            io::Result::Ok(())
        };
        let _ = tokio::time::timeout(REFUSAL_LINGER, answer).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_bodiless_error_heads_are_recognized() {
        let hyper = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        assert_eq!(hyper_error_status(hyper), Some(400));
        let large = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(hyper_error_status(large), Some(431));
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nx-request-id: a\r\n\r\n";
        assert_eq!(hyper_error_status(ours), None, "the application's own 400");
        let with_body = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n";
        assert_eq!(hyper_error_status(with_body), None);
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(hyper_error_status(ok), None);
        assert_eq!(hyper_error_status(b"{\"body\": 1}"), None);
    }

    #[test]
    fn a_refusal_is_a_whole_problem_response_with_retry_after() {
        let (id, bytes) = closing_problem(
            ProblemCode::Overloaded,
            "too many",
            Some(1),
            "http://h/problems",
        );
        let text = String::from_utf8(bytes).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(
            head.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
            "{head}"
        );
        let lines: Vec<&str> = head.lines().collect();
        assert!(lines.contains(&"retry-after: 1"), "{head}");
        assert!(lines.contains(&"connection: close"), "{head}");
        assert!(lines.contains(&format!("content-length: {}", body.len()).as_str()));
        let problem: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(problem["code"], "overloaded");
        assert_eq!(problem["detail"], "too many");
        assert_eq!(problem["requestId"], id.as_str());
        let (_, hypers) = closing_problem(ProblemCode::BadRequest, "x", None, "http://h/problems");
        assert!(!String::from_utf8(hypers).unwrap().contains("retry-after"));
    }

    #[test]
    fn the_replacement_is_a_whole_problem_response() {
        let peer: SocketAddr = "127.0.0.1:1".parse().unwrap();
        let bytes = problem_response(431, "http://h/problems", peer);
        let text = String::from_utf8(bytes).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 "), "{head}");
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let problem: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(problem["code"], "headers_too_large");
        assert_eq!(problem["type"], "http://h/problems/headers-too-large");
        assert!(head.contains(&format!(
            "x-request-id: {}",
            problem["requestId"].as_str().unwrap()
        )));
    }
}
