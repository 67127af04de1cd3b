//! The texts of the platform's mails, built at send time by the `send_mail` job (see
//! [`super::SendMail`]). Copied letter for letter where the spec gives them.
