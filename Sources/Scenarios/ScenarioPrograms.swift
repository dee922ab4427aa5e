/// Built-in scenarios restated in the pipeline language (docs/PIPELINES.md), carried in their
/// catalogue entries (`pipeline`); each program says in comments where it differs. Tests run each
/// beside its scenario on virtual clocks and compare the streams.
enum ScenarioPrograms {
    static let ticker = """
        // The ticker at its default period. Its stream `timer` is `ticks` here: a program may not
        // name a stream after a source.
        ticks = interval(1s)
        count = ticks.scan(0) { count, _ in count + 1 }
        parity = count.map { $0 % 2 == 0 ? "even" : "odd" }
        """

    static let search = """
        // Instant search. Not written here: `searching` (it needs startWith inside the flattening
        // and a shared inner stream), `errors`, and `cancelled` (a disposal's side effect).
        input query: text
        validQuery = query.filter { $0.count > 2 }
        throttled = validQuery.throttle(0.5s)
        results = throttled.flatMap(.latest) { search($0).catch { _ in empty } }
        """

    static let login = """
        // Sign-in. The fields are read at each submit with withLatest, so a submit before both
        // were typed does nothing (the scenario signs in with empty fields). `errors` is
        // `failures` here: a program may not name a stream after an operator.
        input username: text
        input password: text
        input submit: action
        usernameValid = username.map { $0.count > 3 }
        passwordValid = password.map { $0.count > 3 }
        signInEnabled = combineLatest(usernameValid, passwordValid).and()
        signer = command(enabled: signInEnabled) { fields in signIn(fields[0], fields[1]) }
            .execute(on: submit.withLatest(from: username, password).map { _, user, secret in [user, secret] })
        signingIn = signer.executing
        signInResult = signer.executionSignals
        failures = signer.errors
        """

    static let command = """
        // The subscribe form. Closures have no regular expressions (a pattern could backtrack for
        // ever), so emailValid approximates the scenario's ^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$.
        // Operators' names are not stream names: `enabled`, `executing` and `errors` are
        // isEnabled, isExecuting and failures here, and the `execute` button is `press`. The form
        // starts disabled (startWith), as the scenario's empty field makes it.
        input email: text
        input press: action
        input allowsConcurrentExecution: bool
        emailValid = email.map { $0.contains("@") && $0.contains(".") && !$0.contains(" ") }
        subscriber = command(enabled: emailValid.startWith(false), allowsConcurrentExecution: allowsConcurrentExecution) { address in subscribe(address) }
            .execute(on: press.withLatest(from: email).map { _, address in address })
        isEnabled = subscriber.enabled
        isExecuting = subscriber.executing
        executionValues = subscriber.executionSignals
        failures = subscriber.errors
        """
}
