import Dispatch
import Foundation
import Locking

// RAC's callback unification: one API for notifications, callbacks and the rest. These bridges turn Foundation's
// callback styles into cold signals.

extension Signal {
    /// Wraps a callback-style asynchronous API in a cold signal (the pattern of RAC's
    /// `rac_sendAsynchronousRequest:`): `start` runs once per subscription and calls `complete`
    /// once with the result; the disposable it may return cancels the work when the subscription is
    /// disposed first.
    public static func fromCallback(
        _ start: @escaping @Sendable (_ complete: @escaping @Sendable (Result<Value, Failure>) -> Void) -> (any Disposable)?
    ) -> Signal {
        Signal { subscriber in
            start { result in subscriber.send(result) }
        }
    }
}

/// The error of ``Signal/contentsOfFile(atPath:queue:)``: the POSIX error number.
public struct FileReadError: Error, Equatable, Sendable {
    /// The `errno` value.
    public let code: Int32
}

extension Signal where Value == [UInt8], Failure == FileReadError {
    /// Reads a whole file on a Dispatch I/O channel (the callback API wrapped with
    /// ``fromCallback(_:)``): sends its bytes and completes, or fails with the POSIX error.
    /// Disposing before the read finishes closes the channel.
    public static func contentsOfFile(atPath path: String, queue: DispatchQueue = .global()) -> Signal {
        fromCallback { complete in
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                complete(.failure(FileReadError(code: errno)))
                return nil
            }
            let channel = DispatchIO(type: .stream, fileDescriptor: descriptor, queue: queue) { _ in close(descriptor) }
            let bytes = Lock<[UInt8]>([])
            channel.read(offset: 0, length: Int.max, queue: queue) { done, data, error in
                if let data, !data.isEmpty { bytes.withLock { $0.append(contentsOf: data) } }
                guard done else { return }
                channel.close()
                complete(error == 0 ? .success(bytes.withLock { $0 }) : .failure(FileReadError(code: error)))
            }
            return ActionDisposable { channel.close(flags: .stop) }
        }
    }
}

extension Signal where Value == Notification.Name, Failure == Never {
    /// Sends the name of each notification posted to `center` with `name` (from `object`, if
    /// given), until disposed; disposal removes the observer (RAC
    /// `rac_addObserverForName:object:`). The name, not the notification, is sent: a
    /// `Notification` carries an untyped `userInfo` and is not `Sendable`.
    public static func notifications(
        named name: Notification.Name,
        object: (AnyObject & Sendable)? = nil,
        center: NotificationCenter = .default
    ) -> Signal {
        Signal { subscriber in
            let observer = center.addObserver(forName: name, object: object, queue: nil) { notification in
                subscriber.sendNext(notification.name)
            }
            let token = ObserverToken(observer)
            return ActionDisposable { center.removeObserver(token.observer) }
        }
    }
}

/// A NotificationCenter observer token, kept only to remove it.
private struct ObserverToken: @unchecked Sendable {
    let observer: any NSObjectProtocol
    init(_ observer: any NSObjectProtocol) { self.observer = observer }
}
