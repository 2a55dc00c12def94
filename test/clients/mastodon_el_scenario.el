;;; mastodon_el_scenario.el --- Debian's elpa-mastodon against a Hearth hub  -*- lexical-binding: t -*-

;; Run by test/clients/mastodon-el.test.ts as `emacs --batch -l <this file>', with HOME a fresh
;; directory. mastodon.el is used unchanged, through its own commands, as a user at the keyboard
;; would: its settings say which instance and user; it registers itself and asks for the code of
;; the authorize page (the URL goes to the "clipboard", here the test); then home (read to its end
;; the way the client pages, with max_id), a new toot, a reply to and a favourite of a stranger's
;; post on the local timeline, a follow, and the notifications.
;;
;; Settings come from the environment: HUB_URL, CA_FILE, HUB_USER, STRANGER and FOLLOW (accts). Every step
;; prints a line "STEP <json>" on stdout: {"step", "ok", what the client showed, "said": the
;; messages it gave meanwhile}; the test judges them. A step that fails does not stop the next.

(require 'json)
(require 'seq)
(require 'mastodon)
(require 'mastodon-tl)
(require 'mastodon-toot)
(require 'mastodon-profile)
(require 'mastodon-notifications)

;; Emacs's settings for the instance's certificate, made for the test: trusted as a user adds a CA
;; (gnutls-trustfiles), and checked by GnuTLS, whose failure is an error rather than a question
;; (gnutls-verify-error). The Network Security Manager would still ask about a certificate that
;; signs itself, and nobody answers in batch mode: it is told to trust hosts on this machine.
(require 'gnutls)
(add-to-list 'gnutls-trustfiles (getenv "CA_FILE"))
(setq gnutls-verify-error t
      nsm-trust-local-network t)

;; The user's settings: the instance and the account.
(setq mastodon-instance-url (getenv "HUB_URL")
      mastodon-active-user (getenv "HUB_USER")
      ;; Timestamps shown as they are (no timers left running).
      mastodon-tl--enable-relative-timestamps nil)

;; The clipboard: the client copies the authorize URL there for the user to open.
(setq interprogram-cut-function
      (lambda (text) (princ (format "\nCLIPBOARD %s\n" text))))

(defun hearth--wait (pred &optional seconds)
  "Let the client's network work go on until PRED holds or SECONDS (10) pass; return PRED's value."
  (let ((deadline (+ (float-time) (or seconds 10))))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall pred)))

(defun hearth--messages-since (start)
  (with-current-buffer (messages-buffer)
    (split-string (buffer-substring-no-properties (min start (point-max)) (point-max)) "\n" t)))

(defun hearth--step (name fn)
  "Run step NAME: FN returns an alist of what the client showed; report it with what it said."
  (let* ((start (with-current-buffer (messages-buffer) (point-max)))
         (line (condition-case err
                   (append `((step . ,name) (ok . t)) (funcall fn))
                 (error `((step . ,name) (ok . :json-false) (error . ,(error-message-string err)))))))
    (push (cons 'said (vconcat (hearth--messages-since start))) line)
    (princ (format "\nSTEP %s\n" (json-encode line)))))

(defun hearth--text (toot)
  "The text of TOOT's content as the client shows it, without its markup."
  (string-trim (replace-regexp-in-string "<[^>]*>" "" (or (alist-get 'content toot) ""))))

(defun hearth--toots ()
  "The toots of the current buffer, in order."
  (let ((pos (point-min)) toots)
    (while pos
      (let ((toot (get-text-property pos 'toot-json)))
        (when toot (push toot toots)))
      (setq pos (next-single-property-change pos 'toot-json)))
    (nreverse toots)))

(defun hearth--goto-toot (pred)
  "Put point on the first toot of the buffer whose JSON satisfies PRED."
  (let ((pos (point-min)) found)
    (while (and pos (not found))
      (let ((toot (get-text-property pos 'toot-json)))
        (if (and toot (funcall pred toot))
            (setq found pos)
          (setq pos (next-single-property-change pos 'toot-json)))))
    (unless found (error "No such toot in %s" (buffer-name)))
    (goto-char found)))

(defun hearth--by (acct)
  (lambda (toot) (equal (alist-get 'acct (alist-get 'account toot)) acct)))

(defun hearth--open-local ()
  "Open the local timeline afresh (L), as a user reloads it."
  (when (get-buffer "*mastodon-local*") (kill-buffer "*mastodon-local*"))
  (mastodon-tl--get-local-timeline)
  (unless (hearth--wait (lambda () (get-buffer "*mastodon-local*")))
    (error "The local timeline did not open"))
  (set-buffer "*mastodon-local*"))

(defvar hearth--pages-loaded 0
  "How many times the client has appended an older page (observed, not changed).")
(advice-add 'mastodon-tl--more* :after (lambda (&rest _) (setq hearth--pages-loaded (1+ hearth--pages-loaded))))

(defun hearth--compose-and-send (text)
  "Type TEXT at the end of the *new toot* buffer and send it (C-c C-c); t when the client sent it."
  (with-current-buffer "*new toot*"
    ;; The client reads the instance's limit when the buffer opens; a user types meanwhile.
    (hearth--wait (lambda () mastodon-toot--max-toot-chars) 5)
    (goto-char (point-max))
    (insert text)
    (mastodon-toot--send))
  ;; The client closes the buffer when the server took the toot; otherwise the user gives up.
  (if (get-buffer "*new toot*")
      (progn (with-current-buffer "*new toot*" (mastodon-toot--kill)) nil)
    t))

;;; The steps

(hearth--step
 "login"
 (lambda ()
   ;; M-x mastodon would do the same first: find out who the user is, asking for a token.
   `((acct . ,(mastodon-auth--user-acct)))))

(hearth--step
 "home"
 (lambda ()
   (mastodon)
   (unless (hearth--wait (lambda () (get-buffer "*mastodon-home*")))
     (error "The home timeline did not open"))
   (set-buffer "*mastodon-home*")
   ;; Older toots, as the client fetches them when the reader moves past the last one; a reader
   ;; gives up after 10 pages (three would do).
   (let ((ended :json-false) (pages 0))
     (while (and (< pages 10) (eq ended :json-false))
       (let ((before (length (hearth--toots)))
             (loaded hearth--pages-loaded))
         (mastodon-tl--more)
         (unless (hearth--wait (lambda () (> hearth--pages-loaded loaded)))
           (error "An older page did not come"))
         (setq pages (1+ pages))
         (when (= before (length (hearth--toots))) (setq ended t))))
     `((ended . ,ended)
       (toots . ,(vconcat (mapcar (lambda (toot) `((id . ,(alist-get 'id toot)) (text . ,(hearth--text toot))))
                                  (hearth--toots))))))))

(hearth--step
 "toot"
 (lambda ()
   (mastodon-toot)
   `((sent . ,(if (hearth--compose-and-send "Hello from Emacs") t :json-false)))))

(hearth--step
 "reply"
 (lambda ()
   (hearth--open-local)
   (hearth--goto-toot (hearth--by (getenv "STRANGER")))
   (let ((parent (alist-get 'id (get-text-property (point) 'toot-json))))
     ;; r: the client opens *new toot* with the author's handle in it.
     (mastodon-toot--reply)
     (let ((prefilled (with-current-buffer "*new toot*" (mastodon-toot--remove-docs))))
       `((parent . ,parent)
         (prefilled . ,prefilled)
         (sent . ,(if (hearth--compose-and-send "The one on Mill Lane is lovely") t :json-false)))))))

(hearth--step
 "favourite"
 (lambda ()
   (hearth--open-local)
   (hearth--goto-toot (hearth--by (getenv "STRANGER")))
   ;; f
   (mastodon-toot--toggle-favourite)
   (let ((marked (save-excursion (goto-char (point-min)) (and (search-forward "(F) " nil t) t))))
     ;; Still favourited when the timeline is read again.
     (hearth--open-local)
     (hearth--goto-toot (hearth--by (getenv "STRANGER")))
     `((marked . ,(if marked t :json-false))
       (favourited_on_reload . ,(alist-get 'favourited (get-text-property (point) 'toot-json)))))))

(hearth--step
 "follow"
 (lambda ()
   (hearth--open-local)
   (hearth--goto-toot (hearth--by (getenv "FOLLOW")))
   ;; W, the handle chosen from the toot's.
   (mastodon-tl--follow-user (getenv "FOLLOW"))
   ;; A: the author's profile, which says whether the user follows them.
   (mastodon-profile--get-toot-author)
   (let ((profile (format "*mastodon-%s-statuses*" (getenv "FOLLOW"))))
     (unless (get-buffer profile) (error "The profile did not open"))
     (with-current-buffer profile
       `((profile . ,(buffer-substring-no-properties (point-min) (min (point-max) 600))))))))

(hearth--step
 "notifications"
 (lambda ()
   ;; N
   (mastodon-notifications--get)
   (with-current-buffer "*mastodon-notifications*"
     `((text . ,(buffer-substring-no-properties (point-min) (point-max)))))))

(kill-emacs 0)

;;; mastodon_el_scenario.el ends here
