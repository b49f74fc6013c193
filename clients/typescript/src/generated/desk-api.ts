// Generated from the Desk server's /api/v1/openapi.json by `npm run client:types`. Do not edit by hand.

export interface paths {
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This description (OpenAPI 3.1); needs no key */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
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
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** Key check: the desk this key belongs to */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
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
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** The key, its desk and the desk's counts */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
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
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** The open queue, a page at a time */
        get: {
            parameters: {
                query?: {
                    /** @description Integer 1-200, default 50; out-of-range values are brought into range, non-numbers mean the default. */
                    limit?: string | number;
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description At most `limit` open rows: overdue first, then priority desc, due date asc (no date last), id asc. */
                                items: components["schemas"]["WorkItem"][];
                                next_cursor: string | null;
                                /** @description The whole open queue, before filters and paging; equals /me work.open. */
                                open_total: number;
                            };
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** One work item with its messages and timeline; finished rows too */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A positive integer id on this desk. */
                    id: string | number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                work: components["schemas"]["WorkItem"];
                                /** @description Oldest first. */
                                messages: {
                                    id: number;
                                    /** @description `email` and others this desk uses. */
                                    channel: string;
                                    /** @enum {string} */
                                    direction: "outbound" | "inbound";
                                    subject: string | null;
                                    body: string;
                                    /** @enum {string} */
                                    status: "drafted" | "approved" | "sent";
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
                                }[];
                                /** @description The row's history as sentences, oldest first. */
                                timeline: {
                                    kind: string;
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601, UTC
                                     */
                                    at: string;
                                    /** @description Safe to show verbatim. */
                                    text: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** Do what the row asks: send its prepared message, then move it to waiting or done */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Identifies one intent; a repeat returns the first answer. First 200 characters used. */
                    "idempotency-key"?: string;
                };
                path: {
                    /** @description A positive integer id on this desk. */
                    id: string | number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Appended to the row's detail. */
                        note?: string;
                        /** @description Recorded as who did it; default `api`. */
                        actor?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                                status: "open" | "in_progress" | "waiting" | "done" | "closed";
                                waiting_on: string | null;
                                /** @description The desk tried to send and could not; the row stays open with last_error set. */
                                failed: boolean;
                                /** @description A provider accepted the message. False with failed true means the send was intended and failed. */
                                delivered: boolean;
                                delivery_note: string;
                            };
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** Push the due date out; priority falls by 5 */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Identifies one intent; a repeat returns the first answer. First 200 characters used. */
                    "idempotency-key"?: string;
                };
                path: {
                    /** @description A positive integer id on this desk. */
                    id: string | number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                                title: string;
                                kind: string;
                                status: "open" | "in_progress" | "waiting" | "done" | "closed";
                                due_date: string | null;
                                priority: number;
                            };
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** Have the desk write the row's message; declines in the body (200) when it cannot */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Identifies one intent; a repeat returns the first answer. First 200 characters used. */
                    "idempotency-key"?: string;
                };
                path: {
                    /** @description A positive integer id on this desk. */
                    id: string | number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
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
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
         * @description Sends the row's prepared message, or drafts and sends it, or drives the row's playbook in a browser. 403 not_permitted unless the owner granted the row's class. ok: false (200) with a reason when the row needs a person, is finished, is waiting, or the desk has no way to act, and when the run fails or runs out of time (timed_out: true).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Identifies one intent; a repeat returns the first answer. First 200 characters used. */
                    "idempotency-key"?: string;
                };
                path: {
                    /** @description A positive integer id on this desk. */
                    id: string | number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
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
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** Every arrangement, most in need of attention first (overdue work, open work, next due) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                items: {
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
                                }[];
                            };
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** Add a note to an arrangement; the desk reads notes when it works the arrangement */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Identifies one intent; a repeat returns the first answer. First 200 characters used. */
                    "idempotency-key"?: string;
                };
                path: {
                    /** @description A positive integer id on this desk. */
                    id: string | number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Trimmed and cut at 4,000 characters; must not be empty. */
                        body: string;
                        /** @description Who wrote it; default `api`. */
                        actor?: string;
                        /** @description `call` is kept; any other value (of any type) is stored as `note`. */
                        channel?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
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
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** The composition of the screen: its sections, in order */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
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
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** Units, in the desk's own order */
        get: {
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
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                items: {
                                    id: number;
                                    /** @description What one unit is; the `unit` of a units block on GET /desk. */
                                    type: string;
                                    name: string;
                                    /** @description The business's own columns: strings, numbers, dates (YYYY-MM-DD) or null. */
                                    fields: {
                                        [key: string]: (string | number) | null;
                                    };
                                    arrangement_id: number | null;
                                }[];
                            };
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** What the desk is wired into: problems first, then connected, then pending; never a secret */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                items: {
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
                                }[];
                            };
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** Domains held, and a summary */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                items: {
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
                                }[];
                                summary: {
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
                            };
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** What the desk may do on its own, and what waits on you */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
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
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** The dates the desk watches */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                items: {
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
                                }[];
                            };
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** Everything written or sent: messages, notes, run reports; newest first */
        get: {
            parameters: {
                query?: {
                    /** @description Integer 1-200, default 50; out-of-range values are brought into range, non-numbers mean the default. */
                    limit?: string | number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                items: {
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
                                }[];
                            };
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** The desk's own log; newest first */
        get: {
            parameters: {
                query?: {
                    /** @description Integer 1-200, default 50; out-of-range values are brought into range, non-numbers mean the default. */
                    limit?: string | number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                items: {
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
                                }[];
                            };
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
        /** Ask the desk a question; it may add a block to the desk when asked. Allow up to four minutes */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Identifies one intent; a repeat returns the first answer. First 200 characters used. */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The question; trimmed, and it must not be empty. */
                        text: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description The question as taken, trimmed. */
                                question: string;
                                answer: string | null;
                                /** @description True when no answer came in time; nothing was changed, and the question may be asked again. */
                                timed_out: boolean;
                                /** @description Blocks added to the desk by this answer, already saved. */
                                desk_added: components["schemas"]["DeskSection"][];
                            };
                        };
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Too many requests from this key, or from this address without a key. */
                429: {
                    headers: {
                        /** @description Seconds to wait before trying again. */
                        "retry-after"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Every failure: branch on code, show message to people. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
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
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
