// Generated from the Desk server's /api/v1/openapi.json by `npm run client:types`. Do not edit by hand.

export interface paths {
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This description (OpenAPI 3.1); needs no key
         * @description Generated live, so it shows the API as it is today; info.version is v1. The only route that answers without a key.
         */
        get: operations["getDescription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Key check: the desk this key belongs to
         * @description Answers 200 with the desk id, without counts, when the key is good: the cheapest check.
         */
        get: operations["checkKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The key, its desk and the desk's counts
         * @description The key's id, name and leading characters, its desk, and the desk's counts: open equals open_total on /work; waiting is the part of it where an answer is owed.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/work": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The open queue, a page at a time
         * @description Open rows (open, in_progress, waiting), at most `limit` a page. Follow `next_cursor` as given; null is the only end-of-list signal, and a client also stops when a page repeats, since an unreadable cursor restarts the list. A page may be empty while later pages exist, when a filter removes everything in the window. `open_total` is the whole open queue, before filters and paging. The order is presentation, not a contract: sort yourself if order matters.
         */
        get: operations["listWork"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/work/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One work item with its messages and timeline; finished rows too
         * @description The work item as the queue shows it, its messages (oldest first) and its timeline, the same history as sentences. Rows can vanish between a list and this call: a 404 means skip the id.
         */
        get: operations["getWork"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/work/{id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Do what the row asks: send its prepared message, then move it to waiting or done
         * @description Use when action.type is approve and the prepared message is right, or to record work a person did by hand. Sends the row's newest drafted message through the owner's own mailbox (sent only if a provider accepted it, else approved with the reason), then moves the row to waiting if it is waiting on somebody else, else to done, and appends the note to detail. status waiting is a success. delivered: false with failed: true is still a 200: the send was intended and failed, the row stays open with last_error set.
         */
        post: operations["completeWork"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/work/{id}/snooze": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Push the due date out; priority falls by 5, to no lower than 1
         * @description Moves the due date forward by `days` (default 3), counted from the existing date, or from today when there is none. Priority falls by 5, to no lower than 1. An entry is written to the desk log. Status and action are unchanged and nothing is sent. Works on every row.
         */
        post: operations["snoozeWork"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/work/{id}/draft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Have the desk write the row's message; declines in the body (200) when it cannot
         * @description No body. Use when action.type is prepare. Guarantees a draft exists: a row that already has a prepared message returns it unchanged, and the desk never re-drafts. When there is nothing true to say, usually because nobody is on the row to write to, the answer is drafted: false with a reason (still 200); retrying does not change it: ask who it goes to.
         */
        post: operations["draftWork"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/work/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Have the desk carry the work out; takes minutes (allow at least 15)
         * @description No body. Sends the row's prepared message, or drafts and sends it, or drives the row's playbook in a browser: sign in, fill a form, submit, read the result. A run that finished the work closes the row (closed: true, activity_id set); one that could not finish leaves it open and says what it needs or who it waits on. 403 not_permitted unless the owner granted the row's class (the same check as `allowed`); details.permission names the class. ok: false (200) with a reason when the row needs a person, is finished, is waiting, or the desk has no way to act, and when the run fails or runs out of time (timed_out: true). A second run while the first is in flight is a second attempt, unless it carries the same Idempotency-Key.
         */
        post: operations["runWork"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/arrangements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every arrangement, most in need of attention first (overdue work, open work, next due)
         * @description The long-running relationships of the desk, all of them (no paging). Narrow the queue to one with `GET /work?arrangement={id}`.
         */
        get: operations["listArrangements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/arrangements/{id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a note to an arrangement; the desk reads notes when it works the arrangement
         * @description `body` is trimmed and cut at 4,000 characters. Only the literal `call` is kept as channel; any other value is stored as `note`, without an error. The desk reads notes when it works the arrangement.
         */
        post: operations["addArrangementNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/desk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The composition of the screen: its sections, in order
         * @description The sections, their number and their fields belong to the business: read them rather than assume them. The `kinds` of the work sections are the authoritative list of work kinds on this desk, and the `unit` of a units section is the `type` to pass to /units.
         */
        get: operations["getDesk"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/units": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Units, in the desk's own order
         * @description The things the desk is built around, all of them (no paging). `type` takes the `unit` of a units section of GET /desk and matches a watch's subject_type.
         */
        get: operations["listUnits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the desk is wired into: problems first, then connected, then pending; never a secret
         * @description Read-only. With no mailbox connected, the desk prepares and records everything and nothing leaves.
         */
        get: operations["listConnections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Domains held, and a summary
         * @description A small fixed-size set, not paged. unpaid and collections need attention; the summary counts them and what they owe in the desk's currency.
         */
        get: operations["listDomains"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the desk may do on its own, and what waits on you
         * @description Open rows counted by permission class: doing (granted, the desk acts), asking (waiting on a person's decision) and covered (out with somebody else). money and sign can never be granted. Grants are changed by the owner in the product only.
         */
        get: operations["getPermissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/watches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The dates the desk watches
         * @description Each watch reads a date field on a kind of unit and turns into work of its `kind` `lead_days` ahead.
         */
        get: operations["listWatches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Everything written or sent: messages, notes, run reports; newest first
         * @description The newest `limit` entries, newest first (the opposite of /work). No cursor and no total: raising `limit` is the only way to see more, and at 200 there is no further page.
         */
        get: operations["listActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The desk's own log; newest first
         * @description What the desk did and when, writes through the API included: those have kind api_write, the method and path as message, and the key's leading characters in data. Paged as /activity: `limit` only, newest first.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask the desk a question; it may add a block to the desk when asked. Allow up to four minutes
         * @description Slow: allow up to four minutes. A client-side time-out is an unknown outcome: retry with the same Idempotency-Key. timed_out: true is a 200 with answer null and nothing changed; the question may be asked again. Blocks in desk_added are already saved, a report rather than a proposal.
         */
        post: operations["askDesk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every failure: branch on code, show message to people. */
        Error: {
            error: {
                /** @enum {string} */
                code: "bad_request" | "unauthorized" | "no_desk" | "not_permitted" | "not_found" | "payload_too_large" | "rate_limited" | "unavailable" | "internal_error";
                message: string;
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        Action: {
            type: "approve" | "run" | "nudge" | "wait" | "own" | "answer" | "prepare" | "fix";
            /** @description Button text; shown as received. */
            label: string;
            /** @description A sentence saying why, written for a person. */
            hint: string;
        };
        WorkItem: {
            id: number;
            title: string;
            detail: string | null;
            /** @description Open vocabulary; GET /desk lists a desk's kinds. */
            kind: string;
            status: "open" | "in_progress" | "waiting" | "done" | "closed";
            due_date: string | null;
            days_to_due: number | null;
            overdue: boolean;
            priority: number;
            waiting_on: string | null;
            days_waiting: number | null;
            last_error: string | null;
            action: components["schemas"]["Action"] | null;
            permission: ("reach_out" | "chase" | "file" | "commit" | "money" | "sign") | null;
            allowed: boolean;
            has_draft: boolean;
        };
        DeskSection: {
            id: string;
            title: string;
            blurb: string;
            kind: "work" | "units" | "money" | "dates";
            kinds: string[];
            unit: string | null;
            fields: {
                name: string;
                hint: string;
            }[];
            why: string;
        };
        /**
         * @description The request was understood and refused; fix it before sending it again.
         * @example {
         *       "error": {
         *         "code": "bad_request",
         *         "message": "\"day\" is not a field of this request; it takes \"days\".",
         *         "details": {
         *           "field": "day",
         *           "accepted": [
         *             "days"
         *           ]
         *         }
         *       }
         *     }
         */
        BadRequestError: components["schemas"]["Error"] & {
            error: {
                /** @enum {string} */
                code: "bad_request";
                /** @description For people; branch on code, never on this. */
                message: string;
                details?: {
                    /** @description The body field the refusal is about: one the route does not take, or one whose value it refused. */
                    field?: string;
                    /** @description The fields the route takes. */
                    accepted?: string[];
                    /** @description The values a refused parameter takes. */
                    allowed?: string[];
                } & {
                    [key: string]: unknown;
                };
            };
        };
        /**
         * @description No key, a malformed Authorization header, or a key that does not exist or was revoked. Not retryable.
         * @example {
         *       "error": {
         *         "code": "unauthorized",
         *         "message": "Send a key: Authorization: Bearer <key>, or ?token=<key> for a quick browser check."
         *       }
         *     }
         */
        UnauthorizedError: components["schemas"]["Error"] & {
            error: {
                /** @enum {string} */
                code: "unauthorized";
                /** @description For people; branch on code, never on this. */
                message: string;
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        /**
         * @description The key is valid but its desk no longer exists. Permanent: disable the integration.
         * @example {
         *       "error": {
         *         "code": "no_desk",
         *         "message": "The key is valid but its desk no longer exists. Disable this integration."
         *       }
         *     }
         */
        NoDeskError: components["schemas"]["Error"] & {
            error: {
                /** @enum {string} */
                code: "no_desk";
                /** @description For people; branch on code, never on this. */
                message: string;
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        /**
         * @description The desk has not been granted the row's class of work; only the owner can grant it.
         * @example {
         *       "error": {
         *         "code": "not_permitted",
         *         "message": "The desk has not been granted \"file\" work.",
         *         "details": {
         *           "permission": "file"
         *         }
         *       }
         *     }
         */
        NotPermittedError: components["schemas"]["Error"] & {
            error: {
                /** @enum {string} */
                code: "not_permitted";
                /** @description For people; branch on code, never on this. */
                message: string;
                details: {
                    permission: string | null;
                };
            };
        };
        /**
         * @description No such record on this desk, or it belongs to another desk (the two are indistinguishable). Skip the id.
         * @example {
         *       "error": {
         *         "code": "not_found",
         *         "message": "No work item 42 on this desk."
         *       }
         *     }
         */
        NotFoundError: components["schemas"]["Error"] & {
            error: {
                /** @enum {string} */
                code: "not_found";
                /** @description For people; branch on code, never on this. */
                message: string;
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        /**
         * @description The request body is larger than 1 MiB.
         * @example {
         *       "error": {
         *         "code": "payload_too_large",
         *         "message": "The request body is larger than 1 MiB."
         *       }
         *     }
         */
        PayloadTooLargeError: components["schemas"]["Error"] & {
            error: {
                /** @enum {string} */
                code: "payload_too_large";
                /** @description For people; branch on code, never on this. */
                message: string;
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        /**
         * @description Too many requests from this key, or from this address without a key; wait Retry-After seconds.
         * @example {
         *       "error": {
         *         "code": "rate_limited",
         *         "message": "Too many requests for this key; try again in 12 s.",
         *         "details": {
         *           "retry_after_seconds": 12
         *         }
         *       }
         *     }
         */
        RateLimitedError: components["schemas"]["Error"] & {
            error: {
                /** @enum {string} */
                code: "rate_limited";
                /** @description For people; branch on code, never on this. */
                message: string;
                details?: {
                    /** @description The same as the Retry-After header. */
                    retry_after_seconds: number;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        /**
         * @description The server is stopping and takes no new requests, or its database is busy with another process, full or out of reach; retry after Retry-After seconds, with the same Idempotency-Key.
         * @example {
         *       "error": {
         *         "code": "unavailable",
         *         "message": "The desk is stopping; try again in a moment."
         *       }
         *     }
         */
        UnavailableError: components["schemas"]["Error"] & {
            error: {
                /** @enum {string} */
                code: "unavailable";
                /** @description For people; branch on code, never on this. */
                message: string;
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        /**
         * @description A fault at the desk end; the cause is only in the server log. Retry with back-off and the same Idempotency-Key.
         * @example {
         *       "error": {
         *         "code": "internal_error",
         *         "message": "Something went wrong at the desk end. Try again with the same Idempotency-Key.",
         *         "details": {
         *           "request_id": "0b5f3c1e-8f1d-4a6b-9d4e-2c7a1e5b9f20"
         *         }
         *       }
         *     }
         */
        InternalError: components["schemas"]["Error"] & {
            error: {
                /** @enum {string} */
                code: "internal_error";
                /** @description For people; branch on code, never on this. */
                message: string;
                details: {
                    /** @description The X-Request-Id of this answer, to find it in the log. */
                    request_id: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        /** @description The key, its desk and the desk's counts. */
        KeySummary: {
            key: {
                id: number;
                name: string;
                prefix: string;
            };
            desk: {
                id: string;
                name: string;
                slug: string;
                plan: string;
                status: string;
            };
            work: {
                /** @description Rows in open, in_progress or waiting; equals open_total on /work. */
                open: number;
                /** @description Open rows where an answer is owed. */
                waiting: number;
                /** @description Rows closed since the desk's midnight. */
                closed_today: number;
            };
        };
        /** @description One page of the open queue. */
        WorkPage: {
            /** @description At most `limit` open rows: overdue first, then priority desc, due date asc (no date last), id asc. */
            items: components["schemas"]["WorkItem"][];
            next_cursor: string | null;
            /** @description The whole open queue, before filters and paging; equals /me work.open. */
            open_total: number;
        };
        /** @description A message on a work row: drafted, approved or sent by the desk, or received from outside. */
        Message: {
            id: number;
            /** @description `email` and others this desk uses. */
            channel: string;
            /**
             * @description `inbound` is a reply read from the desk's mailbox: status `received`, `actor` the sender's name, `sent_at` its Date, `body` its text (HTML turned into text; never HTML).
             * @enum {string}
             */
            direction: "outbound" | "inbound";
            subject: string | null;
            body: string;
            /**
             * @description `drafted`, `approved` (signed off but not delivered: no mailbox, a refusal, or a bounce, with the reason recorded), `sent`; `received` on an inbound reply.
             * @enum {string}
             */
            status: "drafted" | "approved" | "sent" | "received";
            /** @description `desk` when the desk drafted it; otherwise who wrote it, or `api`. */
            actor: string;
            to: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            created_at: string;
            sent_at: string | null;
            approved_at: string | null;
            /** @description On an inbound message: its attachments by name and size. The files are not kept. */
            attachments?: {
                name: string;
                /** @description Bytes. */
                size: number;
            }[];
        };
        /** @description One sentence of a row's history. */
        TimelineEntry: {
            /** @description Open vocabulary. */
            kind: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            at: string;
            /** @description Safe to show verbatim. */
            text: string;
        };
        /** @description One work item with its messages and timeline. */
        WorkDetail: {
            work: components["schemas"]["WorkItem"];
            /** @description Oldest first. */
            messages: components["schemas"]["Message"][];
            /** @description The row's history as sentences, oldest first. */
            timeline: components["schemas"]["TimelineEntry"][];
        };
        /** @description The row after complete. status waiting is a success; delivered false with failed true is not. */
        CompleteAnswer: {
            id: number;
            status: "open" | "in_progress" | "waiting" | "done" | "closed";
            waiting_on: string | null;
            /** @description The desk tried to send and could not; the row stays open with last_error set. */
            failed: boolean;
            /** @description A provider accepted the message. False with failed true means the send was intended and failed. */
            delivered: boolean;
            /** @description What happened to the message, written for a person. */
            delivery_note: string;
        };
        /** @description The snoozed row: its new due date and priority; status unchanged. */
        SnoozeAnswer: {
            id: number;
            title: string;
            kind: string;
            status: "open" | "in_progress" | "waiting" | "done" | "closed";
            due_date: string | null;
            priority: number;
        };
        /** @description The row's prepared message, or drafted false with the reason the desk declined. */
        DraftAnswer: {
            /** @enum {boolean} */
            drafted: true;
            channel: string;
            subject: string;
            body: string;
            /** @description Recipient address. */
            to: string;
        } | {
            /** @enum {boolean} */
            drafted: false;
            /** @description Written for a person; retrying does not change it. */
            reason: string;
        };
        /** @description The desk's report on a run; ok false is a report, not an error. */
        RunAnswer: {
            /** @description False when the desk did not finish: see reason. */
            ok: boolean;
            /** @description The run finished the work and closed the row. */
            closed: boolean;
            /** @description Summary sentence, written for a person. */
            outcome: string;
            needs: string | null;
            waiting: string | null;
            /** @description What was done. */
            done: string;
            /** @description What the run brought back, e.g. an acknowledgement reference; empty when nothing. */
            result: string;
            activity_id: number | null;
            /** @description Actual duration in milliseconds. */
            ms: number;
            /** @description Present when ok is false; safe to show. */
            reason?: string;
            /**
             * @description Present when the run ran out of time (DESK_RUN_TIMEOUT), sends included; the row is as it was, and a message whose send was still unanswered says in its own record whether it went.
             * @enum {boolean}
             */
            timed_out?: true;
        };
        /** @description A long-running relationship (a lease, a supply contract), with the state of its work and notes. */
        Arrangement: {
            id: number;
            name: string;
            counterparty: string | null;
            /** @description Open vocabulary, such as lease or supply. */
            kind: string;
            /** @enum {string} */
            status: "active" | "ending" | "ended";
            starts_on: string | null;
            ends_on: string | null;
            renews_on: string | null;
            amount_cents: number | null;
            currency: string | null;
            contact_name: string | null;
            contact_email: string | null;
            /** @description Its rows in open, in_progress or waiting. */
            open_work: number;
            /** @description Of those, the ones past their due date. */
            overdue_work: number;
            next_due: string | null;
            notes_count: number;
            last_note_at: string | null;
        };
        /** @description The note as stored, an activity entry of the arrangement. */
        Note: {
            /** @description The activity entry the note became. */
            id: number;
            arrangement_id: number;
            channel: "note" | "call";
            body: string;
            actor: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            created_at: string;
        };
        /** @description A thing the desk is built around, such as a site, with the business's own fields. */
        Unit: {
            id: number;
            /** @description What one unit is; the `unit` of a units block on GET /desk. */
            type: string;
            name: string;
            /** @description The business's own columns: strings, numbers, dates (YYYY-MM-DD) or null. */
            fields: {
                [key: string]: (string | number) | null;
            };
            arrangement_id: number | null;
        };
        /** @description Something the desk is wired into; never a secret. */
        Connection: {
            id: number;
            /** @description Integration identifier. */
            provider: string;
            /** @description The name a person knows it by. */
            name: string;
            /** @description What it is for: mail, accounting, files and others (open set). */
            category: string;
            /** @description oauth, token, or a login the desk drives. */
            auth_type: string;
            /** @description connected, pending, error, or another value the desk has decided. */
            status: string;
            /** @description status === connected */
            connected: boolean;
            /** @description What needs a look, in words: the last pass could not read this mailbox (it still sends while its status is connected). Null otherwise. Never a secret. */
            reason: string | null;
        };
        /** @description A domain name the business holds. */
        Domain: {
            id: number;
            name: string;
            registrar: string;
            /** @description live, unpaid, collections, expiring, expired or transferring; unpaid and collections need attention. */
            status: string;
            renewal_on: string | null;
            /** @description Minor units. */
            amount_cents: number;
            currency: string;
            broker_name: string | null;
            notes: string | null;
        };
        /** @description Counts and what is owed across the domains. */
        DomainSummary: {
            total: number;
            live: number;
            /** @description Domains unpaid or in collections. */
            owing: number;
            /** @description What those owe in the desk's currency, minor units; other currencies are not converted. */
            owing_amount: number;
            /** @description The desk's currency, that of owing_amount. */
            currency: string;
            /** @description The desk's broker; empty when none is set. */
            broker: string;
            broker_configured: boolean;
            next: {
                id: number;
                name: string;
                /**
                 * Format: date
                 * @description YYYY-MM-DD
                 */
                renewal_on: string;
            } | null;
        };
        /** @description What the desk may do on its own, and what waits on a person, by class. */
        PermissionSummary: {
            /** @description Always all six classes. */
            classes: {
                reach_out: {
                    /** @description Open rows in the class the desk may act on. */
                    doing: number;
                    /** @description Open rows in the class waiting on a person's decision. */
                    asking: number;
                    /** @description Rows already out with somebody else. */
                    covered: number;
                };
                chase: {
                    /** @description Open rows in the class the desk may act on. */
                    doing: number;
                    /** @description Open rows in the class waiting on a person's decision. */
                    asking: number;
                    /** @description Rows already out with somebody else. */
                    covered: number;
                };
                file: {
                    /** @description Open rows in the class the desk may act on. */
                    doing: number;
                    /** @description Open rows in the class waiting on a person's decision. */
                    asking: number;
                    /** @description Rows already out with somebody else. */
                    covered: number;
                };
                commit: {
                    /** @description Open rows in the class the desk may act on. */
                    doing: number;
                    /** @description Open rows in the class waiting on a person's decision. */
                    asking: number;
                    /** @description Rows already out with somebody else. */
                    covered: number;
                };
                money: {
                    /** @description Open rows in the class the desk may act on. */
                    doing: number;
                    /** @description Open rows in the class waiting on a person's decision. */
                    asking: number;
                    /** @description Rows already out with somebody else. */
                    covered: number;
                };
                sign: {
                    /** @description Open rows in the class the desk may act on. */
                    doing: number;
                    /** @description Open rows in the class waiting on a person's decision. */
                    asking: number;
                    /** @description Rows already out with somebody else. */
                    covered: number;
                };
            };
            /** @description Open rows in no class; these always ask. */
            unclassified: number;
            /** @description Every asking, plus unclassified. */
            needs_you: number;
            /** @description Every doing. */
            with_desk: number;
        };
        /** @description A date the desk watches on a kind of unit, and the work it turns into. */
        Watch: {
            id: number;
            /** @description Kind of thing watched; matches /units?type=. */
            subject_type: string;
            /** @description The field on that thing that holds the date. */
            field: string;
            label: string;
            /** @description How far ahead the desk starts working it. */
            lead_days: number;
            /** @description The work kind it turns into; usable as /work?kind=. */
            kind: string;
            /** @description Permission class of the resulting work. */
            action: string;
            every: string | null;
            priority: number;
        };
        /** @description Something written or sent: a message, a note, or the report of a run. */
        ActivityEntry: {
            id: number;
            obligation_id: number | null;
            arrangement_id: number | null;
            outcome_id: number | null;
            channel: string;
            /** @description outbound or inbound. */
            direction: string;
            subject: string | null;
            body: string;
            /** @description drafted, approved or sent for a message; recorded for a note. */
            status: string;
            actor: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            created_at: string;
            sent_at: string | null;
            approved_at: string | null;
        };
        /** @description An entry of the desk's own log. */
        Event: {
            id: number;
            /** @description api_write for a write through the API; other kinds are the desk's own. */
            kind: string;
            message: string;
            /** @description Details of the entry; for api_write: key_prefix, key_id and status. */
            data: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description ISO 8601, UTC
             */
            created_at: string;
        };
        /** @description The desk's answer; timed_out true is a 200 with answer null. */
        ChatAnswer: {
            /** @description The question as taken, trimmed. */
            question: string;
            answer: string | null;
            /** @description True when no answer came in time; nothing was changed, and the question may be asked again. */
            timed_out: boolean;
            /** @description Blocks added to the desk by this answer, already saved. */
            desk_added: components["schemas"]["DeskSection"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Names this request in the server log; a 500 repeats it as error.details.request_id. */
        "X-Request-Id": string;
        /** @description Requests allowed per minute for this key (or this address without a key). */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the current minute. */
        "X-RateLimit-Remaining": number;
        /** @description Seconds until the current minute ends and the count starts again. */
        "X-RateLimit-Reset": number;
        /** @description Seconds to wait before trying again. */
        "Retry-After": number;
        /** @description The scheme the key is sent in (RFC 6750): `Bearer realm="desk"`, with `error="invalid_token"` when a key came and was refused, and `error="invalid_request"` when one came in a shape or place that cannot be taken. */
        "WWW-Authenticate": string;
        /** @description Present, as `true`, when this is the stored first answer to the same Idempotency-Key (status and body as they were), and nothing was done again. */
        "Idempotent-Replayed": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getDescription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        info: {
                            version: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description Too many requests from this address. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; try again. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    checkKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key's desk. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            desk: {
                                id: string;
                            };
                            /** @enum {string} */
                            version: "v1";
                        };
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key, its desk and the counts. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["KeySummary"];
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    listWork: {
        parameters: {
            query?: {
                /** @description Integer 1-200, default 50; out-of-range values are brought into range, non-numbers mean the default. */
                limit?: number;
                /** @description A next_cursor from an earlier page, as given. Anything unreadable restarts the list from its first page. */
                cursor?: string;
                /** @description Only rows in this status; any other value is 400 bad_request. */
                status?: "open" | "in_progress" | "waiting";
                /** @description A work kind from GET /desk; an unknown kind gives an empty page. */
                kind?: string;
                /** @description An arrangement id; one that is not on this desk gives an empty page. */
                arrangement?: string | number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of open work items and the cursor to the next. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WorkPage"];
                    };
                };
            };
            /** @description `status` is not one of open, in_progress, waiting; details.allowed lists them. On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    getWork: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A positive integer id on this desk. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The work item, its messages and its timeline. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WorkDetail"];
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description No work item with this id on this desk, or it belongs to another desk. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    completeWork: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Identifies one intent: the same on every retry of it, different between intents. A repeat returns the first answer unchanged and writes nothing, even on another route (the key is the desk's, and the answer is the first route's). First 200 characters used; kept 24 hours; an empty value is no key; sent twice, the request is refused (400).
                 * @example b1f6c8e2-5d0a-4c1e-9a57-3f2d8e6b7c40
                 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description A positive integer id on this desk. */
                id: number;
            };
            cookie?: never;
        };
        /** @description Both fields optional; no body at all is the same as {}. */
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "note": "Called them; they confirmed by phone.",
                 *       "actor": "billing-bot"
                 *     }
                 */
                "application/json": {
                    /** @description Appended to the row's detail. Trimmed and cut at 4,000 characters. */
                    note?: string;
                    /** @description Recorded as who did it; default `api`. Trimmed and cut at 200 characters. Not `owner` or `desk` (any case): those name the owner and the desk itself (400). */
                    actor?: string;
                };
            };
        };
        responses: {
            /** @description The row after complete, and what happened to its message. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CompleteAnswer"];
                    };
                };
            };
            /** @description The body is not a JSON object this route reads: an unknown field, or a field of the wrong type. On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description No work item with this id on this desk, or it belongs to another desk. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The request body is larger than 1 MiB. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    snoozeWork: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Identifies one intent: the same on every retry of it, different between intents. A repeat returns the first answer unchanged and writes nothing, even on another route (the key is the desk's, and the answer is the first route's). First 200 characters used; kept 24 hours; an empty value is no key; sent twice, the request is refused (400).
                 * @example b1f6c8e2-5d0a-4c1e-9a57-3f2d8e6b7c40
                 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description A positive integer id on this desk. */
                id: number;
            };
            cookie?: never;
        };
        /** @description Optional; no body at all snoozes 3 days. */
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "days": 7
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Whole days, 1-365; enforced, not clamped.
                     * @default 3
                     */
                    days?: number;
                };
            };
        };
        responses: {
            /** @description The row with its new due date and priority. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SnoozeAnswer"];
                    };
                };
            };
            /** @description `days` is not a whole number from 1 to 365 (enforced, not clamped), a field is unknown, or the body is not JSON. On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description No work item with this id on this desk, or it belongs to another desk. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The request body is larger than 1 MiB. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    draftWork: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Identifies one intent: the same on every retry of it, different between intents. A repeat returns the first answer unchanged and writes nothing, even on another route (the key is the desk's, and the answer is the first route's). First 200 characters used; kept 24 hours; an empty value is no key; sent twice, the request is refused (400).
                 * @example b1f6c8e2-5d0a-4c1e-9a57-3f2d8e6b7c40
                 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description A positive integer id on this desk. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row's prepared message, or why the desk declined. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DraftAnswer"];
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description No work item with this id on this desk, or it belongs to another desk. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The request body is larger than 1 MiB. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    runWork: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Identifies one intent: the same on every retry of it, different between intents. A repeat returns the first answer unchanged and writes nothing, even on another route (the key is the desk's, and the answer is the first route's). First 200 characters used; kept 24 hours; an empty value is no key; sent twice, the request is refused (400).
                 * @example b1f6c8e2-5d0a-4c1e-9a57-3f2d8e6b7c40
                 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description A positive integer id on this desk. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The desk's report on the run. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RunAnswer"];
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description not_permitted: the desk has not been granted the row's class, or the row is in no class. no_desk: the key's desk no longer exists. Branch on error.code. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"] | components["schemas"]["NotPermittedError"];
                };
            };
            /** @description No work item with this id on this desk, or it belongs to another desk. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The request body is larger than 1 MiB. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    listArrangements: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every arrangement on this desk. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            items: components["schemas"]["Arrangement"][];
                        };
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    addArrangementNote: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Identifies one intent: the same on every retry of it, different between intents. A repeat returns the first answer unchanged and writes nothing, even on another route (the key is the desk's, and the answer is the first route's). First 200 characters used; kept 24 hours; an empty value is no key; sent twice, the request is refused (400).
                 * @example b1f6c8e2-5d0a-4c1e-9a57-3f2d8e6b7c40
                 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description A positive integer id on this desk. */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "body": "Landlord agreed to fix the boiler by Friday.",
                 *       "channel": "call"
                 *     }
                 */
                "application/json": {
                    /** @description Trimmed and cut at 4,000 characters; must not be empty. */
                    body: string;
                    /** @description Who wrote it; default `api`. Trimmed and cut at 200 characters. Not `owner` or `desk` (any case): those name the owner and the desk itself (400). */
                    actor?: string;
                    /** @description `call` is kept; any other value (of any type) is stored as `note`. */
                    channel?: unknown;
                };
            };
        };
        responses: {
            /** @description The note as stored. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Note"];
                    };
                };
            };
            /** @description `body` is empty, whitespace only or missing, a field is unknown or of the wrong type (`actor` not a string), or the request is not JSON. On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description No arrangement with this id on this desk; no note is written. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description The request body is larger than 1 MiB. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    getDesk: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sections of the desk, in order. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            sections: components["schemas"]["DeskSection"][];
                        };
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    listUnits: {
        parameters: {
            query?: {
                /** @description The `unit` of a units block on GET /desk; an unknown type gives an empty list. */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The units, in the desk's order. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            items: components["schemas"]["Unit"][];
                        };
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    listConnections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connections, problems first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            items: components["schemas"]["Connection"][];
                        };
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    listDomains: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domains and their summary. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            items: components["schemas"]["Domain"][];
                            summary: components["schemas"]["DomainSummary"];
                        };
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    getPermissions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The permission summary. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PermissionSummary"];
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    listWatches: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The watches. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            items: components["schemas"]["Watch"][];
                        };
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    listActivity: {
        parameters: {
            query?: {
                /** @description Integer 1-200, default 50; out-of-range values are brought into range, non-numbers mean the default. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The newest activity entries. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            items: components["schemas"]["ActivityEntry"][];
                        };
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Integer 1-200, default 50; out-of-range values are brought into range, non-numbers mean the default. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The newest log entries. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            items: components["schemas"]["Event"][];
                        };
                    };
                };
            };
            /** @description On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
    askDesk: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Identifies one intent: the same on every retry of it, different between intents. A repeat returns the first answer unchanged and writes nothing, even on another route (the key is the desk's, and the answer is the first route's). First 200 characters used; kept 24 hours; an empty value is no key; sent twice, the request is refused (400).
                 * @example b1f6c8e2-5d0a-4c1e-9a57-3f2d8e6b7c40
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "what is overdue?"
                 *     }
                 */
                "application/json": {
                    /** @description The question; trimmed, and it must not be empty. At most 2000 characters; a longer one is a 400 and nothing is logged. */
                    text: string;
                };
            };
        };
        responses: {
            /** @description The desk's answer. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ChatAnswer"];
                    };
                };
            };
            /** @description `text` is empty, missing or longer than 2,000 characters, a field is unknown, or the request is not JSON. On any route: headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description No key, a malformed Authorization header, or an unknown or revoked key. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description no_desk: the key is valid but its desk no longer exists. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoDeskError"];
                };
            };
            /** @description The request body is larger than 1 MiB. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeError"];
                };
            };
            /** @description Too many requests from this key, or from this address without a key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description A fault at the desk end; retry with back-off and the same Idempotency-Key. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalError"];
                };
            };
            /** @description The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnavailableError"];
                };
            };
        };
    };
}
