use super::*;
use std::cell::Cell;

fn error(code: ErrorCode, class: ErrorClass, message: &str) -> git2::Error {
    git2::Error::new(code, class, message)
}

#[test]
fn only_ref_contention_is_tried_again() {
    // As libgit2 words them (the local transport passes a vanished ref up as -1).
    let vanished = error(
        ErrorCode::GenericError,
        ErrorClass::Reference,
        "reference 'refs/arbiter-push/1' not found",
    );
    let locked = error(
        ErrorCode::Locked,
        ErrorClass::Os,
        "failed to lock file '/r/refs/heads/main.lock' for writing: ",
    );
    let created = error(
        ErrorCode::GenericError,
        ErrorClass::Os,
        "failed to create locked file '/r/refs/heads/main.lock': File exists",
    );
    for contention in [&vanished, &locked, &created] {
        assert!(is_ref_contention(contention), "{contention}");
    }
    let unreachable = error(
        ErrorCode::GenericError,
        ErrorClass::Net,
        "connection refused",
    );
    let missing = error(ErrorCode::NotFound, ErrorClass::Reference, "no such remote");
    for other in [&unreachable, &missing] {
        assert!(!is_ref_contention(other), "{other}");
    }

    // A contention that clears is retried until it does; anything else is returned at once.
    let calls = Cell::new(0);
    let outcome = retry_ref_contention(|| {
        calls.set(calls.get() + 1);
        if calls.get() < 3 {
            Err(error(
                ErrorCode::Locked,
                ErrorClass::Os,
                "failed to lock file 'x'",
            ))
        } else {
            Ok(())
        }
    });
    assert!(outcome.is_ok());
    assert_eq!(calls.get(), 3);
    calls.set(0);
    let outcome = retry_ref_contention(|| {
        calls.set(calls.get() + 1);
        Err(error(ErrorCode::GenericError, ErrorClass::Net, "down"))
    });
    assert!(outcome.is_err());
    assert_eq!(calls.get(), 1);
}
