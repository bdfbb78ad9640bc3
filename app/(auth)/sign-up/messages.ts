export const SIGN_UP_REFUSED =
  "We couldn't create an account with these details. If you already have an account, sign in.";
